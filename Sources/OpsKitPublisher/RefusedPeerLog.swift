import OpsKit
import Synchronization

/// The log lines for local peers refused for their uid, rate-limited: at most one line per uid
/// per `interval`; the refusals held back meanwhile are counted and told in the uid's next line,
/// so a process that retries in a loop cannot flood the app's log.
final class RefusedPeerLog: Sendable {
    private struct State {
        var lastLine: [UInt32: Duration] = [:]
        var heldBack: [UInt32: Int] = [:]
    }

    /// The shortest time between two lines about the same uid.
    let interval: Duration
    /// Uids remembered at most (a line per uid needs its time): beyond it, the oldest are dropped.
    private let remembered = 1_024
    private let state = OpsMutex(State())

    init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// The line to log for a peer of `uid` (process `pid`, when known) refused at `now` (any
    /// steady clock's reading), or nil when a line about `uid` was given less than `interval` ago.
    func refused(uid: UInt32, pid: Int32?, now: Duration) -> String? {
        state.withLock { state -> String? in
            if let last = state.lastLine[uid], now - last < interval {
                state.heldBack[uid, default: 0] += 1
                return nil
            }
            if state.lastLine.count >= remembered, state.lastLine[uid] == nil,
                let oldest = state.lastLine.min(by: { $0.value < $1.value })?.key
            {
                state.lastLine[oldest] = nil
                state.heldBack[oldest] = nil
            }
            state.lastLine[uid] = now
            let heldBack = state.heldBack.removeValue(forKey: uid) ?? 0
            var line = "refused a viewer of uid \(uid)"
            if let pid { line += " (pid \(pid))" }
            line += ": not the app's uid or one it allows"
            if heldBack > 0 {
                line += " (and \(heldBack) more from uid \(uid) since the last such line, not logged)"
            }
            return line
        }
    }
}
