import OpsKit
import Synchronization

/// Records illegal state transitions instead of asserting, for the duration of `body`; returns
/// the reports in order.
///
/// Reports come from whatever thread makes the transition, so each recording gets every report
/// made while it runs, including those of tests running in parallel: match your operation's
/// name (reports read `ManualOperation(name): …`). Recordings may overlap; the handler that was
/// installed before the first of them is restored when the last one ends.
public func recordingIllegalTransitions(_ body: () -> Void) -> [String] {
    let recorder = Recorder()
    IllegalTransitionRecordings.shared.begin(recorder)
    body()
    IllegalTransitionRecordings.shared.end(recorder)
    return recorder.all
}

/// The recordings running now, and the handler to restore when the last one ends.
private final class IllegalTransitionRecordings: Sendable {
    static let shared = IllegalTransitionRecordings()

    private struct Active {
        var recorders: [Recorder] = []
        var previous: IllegalTransitionReporter.Handler?
    }

    // Locking: everything in `active` (a Mutex); the reporter is installed and restored with
    // it held, so a recording that starts as another ends sees one consistent handler.
    private let active = OpsMutex(Active())

    func begin(_ recorder: Recorder) {
        active.withLock { active in
            if active.recorders.isEmpty {
                active.previous = IllegalTransitionReporter.install { [self] message in deliver(message) }
            }
            active.recorders.append(recorder)
        }
    }

    func end(_ recorder: Recorder) {
        active.withLock { active in
            active.recorders.removeAll { $0 === recorder }
            if active.recorders.isEmpty {
                IllegalTransitionReporter.install(active.previous)
                active.previous = nil
            }
        }
    }

    private func deliver(_ message: String) {
        for recorder in active.withLock({ $0.recorders }) { recorder.add(message) }
    }
}
