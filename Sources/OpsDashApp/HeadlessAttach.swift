import Foundation
import OpsKitRemote
import OpsMonitor
import Synchronization

/// `opsdash attach --headless`: the published queue's events as the same JSON Lines
/// `opsdash --headless` writes (a late join starts with the lines that lead to the current
/// picture), a summary line last. Ends when the app says bye (exit by counts), the connection is
/// lost (1) or a signal arrives.
struct HeadlessAttach {
    let target: RemoteTarget
    let role: RemoteRole?
    let token: String?
    /// `--record FILE`: also writes what the viewer sees to a recording.
    var recorder: AttachRecorder?

    /// Writes lines in order from the viewer's thread.
    private final class Printer: Sendable {
        private let state = Mutex<(encoder: JSONLinesEncoder, readerGone: Bool)>((JSONLinesEncoder(), false))

        func print(_ outputs: [ViewerCore.Output]) {
            var text = ""
            state.withLock { state in
                for output in outputs {
                    switch output {
                    case .keyframe(let previous, let current):
                        for event in SnapshotEvents.events(from: previous, to: current) {
                            state.encoder.encode(event, into: &text)
                        }
                    case .event(let event):
                        state.encoder.encode(event, into: &text)
                    default:
                        break
                    }
                }
                if !text.isEmpty, !state.readerGone { state.readerGone = !StandardStreams.write(text) }
            }
        }
    }

    func execute(signals: StopSignals) -> ExitStatus {
        signals.handOver()
        let printer = Printer()
        let recorder = recorder
        let viewer = RemoteViewer(
            target: target, role: role, token: token, reconnect: false,
            onOutput: { outputs in
                recorder?.record(outputs)
                printer.print(outputs)
            })
        if let error = viewer.start() {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        while !viewer.isFinished {
            if let number = signals.received {
                viewer.stop()
                viewer.waitUntilFinished()
                summary(viewer.snapshot, interrupted: true)
                return ExitStatus.forSignal(number)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let snapshot = viewer.snapshot
        let (reason, bye) = viewer.endReason
        summary(snapshot, interrupted: !bye)
        guard bye else {
            StandardStreams.error("opsdash: lost connection to \(target): \(reason ?? "disconnected")")
            return .someFailed
        }
        let counts = snapshot.counts
        return ExitStatus.forCounts(
            failed: counts.failed, cancelled: counts.cancelled, unfinished: counts.total - counts.finished)
    }

    private func summary(_ snapshot: QueueSnapshot, interrupted: Bool) {
        StandardStreams.write(JSONLinesEncoder.summary(snapshot, duration: snapshot.time, interrupted: interrupted))
    }
}
