import Foundation
import OpsKit

/// What a reader that asks a `QueueMonitor` for a picture once a frame (a dashboard's loop)
/// remembers between its reads: how many changes had been recorded at the last one.
package struct FrameReadMark: Sendable {
    var recorded: UInt64 = 0

    package init() {}
}

extension QueueMonitor {
    /// A picture for a once-a-frame reader: nil if `version` is given and nothing changed since.
    ///
    /// Changes recorded since the reader's last call are left to the background applier (a
    /// thread at nice 19), which this call wakes; the reader applies on its own thread only
    /// what the applier has not reached by its next call (a busy machine gives a nice-19 thread
    /// no CPU). So the reader's thread draws, the monitor's bookkeeping runs where the app's
    /// threads come first, and a picture lags the queue by about one call interval at most.
    /// A picture taken with changes left pending is timed at the oldest of them, so no change
    /// is applied at a time later than it was stamped.
    package func frameSnapshot(ifChangedSince version: UInt64?, mark: inout FrameReadMark) -> QueueSnapshot? {
        var released: [NSKeyValueObservation] = []
        let background = recorder.appliesInBackground
        var requestApply = false
        let picture = state.withLock { state -> QueueSnapshot? in
            let inbox = recorder.inbox.withLock { box in
                (taken: box.taken, count: box.changes.count, oldest: box.changes.oldestTime)
            }
            let recorded = inbox.taken &+ UInt64(inbox.count)
            let applied = inbox.taken &- UInt64(state.backlog.count)
            let now = recorder.now
            let time: Duration
            if let oldest = state.backlog.oldestTime ?? inbox.oldest {
                if background, applied >= mark.recorded {
                    requestApply = true
                    time = state.ordered(min(now, oldest))
                } else {
                    applyAll(to: &state, releasing: &released)
                    time = state.ordered(now)
                }
            } else {
                time = state.ordered(now)
            }
            mark.recorded = recorded
            sampleProgress(in: &state, time: time)
            if let version, state.store.version == version { return nil }
            return state.store.snapshot(time: time)
        }
        // Asked with no lock held: the applier's first step takes the state lock.
        if requestApply { recorder.requestImmediateApply() }
        for token in released { token.invalidate() }
        return picture
    }
}
