import NIOCore
import OpsKit
import Synchronization

/// The connections a `MetricsHTTPServer` has open, at most `limit`: one more makes room by
/// closing the oldest connection that is not in the middle of a request (the oldest of all if
/// every one is), so a flood of idle or slow connections cannot keep a scrape out.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var channel: any Channel
        var busy: Bool
    }

    private struct State {
        var next = 0
        var open: [Int: Entry] = [:]
    }

    private let limit: Int
    private let state = OpsMutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Registers `channel` (not busy) and returns its number; closes the connection it displaces.
    func admit(_ channel: any Channel) -> Int {
        let (id, displaced) = state.withLock { state -> (Int, (any Channel)?) in
            var displaced: (any Channel)?
            if state.open.count >= limit {
                let idle = state.open.filter { !$0.value.busy }.keys.min()
                if let victim = idle ?? state.open.keys.min() {
                    displaced = state.open.removeValue(forKey: victim)?.channel
                }
            }
            let id = state.next
            state.next += 1
            state.open[id] = Entry(channel: channel, busy: false)
            return (id, displaced)
        }
        displaced?.close(promise: nil)
        return id
    }

    /// Marks connection `id` as in the middle of a request (from its first byte until its answer
    /// is written) or not.
    func setBusy(_ id: Int, _ busy: Bool) {
        state.withLock { $0.open[id]?.busy = busy }
    }

    /// Connection `id` closed.
    func remove(_ id: Int) {
        _ = state.withLock { $0.open.removeValue(forKey: id) }
    }
}
