import OpsKit

/// What the demo's file server moved, per file: the bytes it sent of each download and the bytes
/// it received of each upload (the numbers the app prints at the end, and the test compares with
/// what the dashboard was told).
final class ServerTally: Sendable {
    // Locking: both tables live in `locked`.
    private struct Tables {
        var sent: [String: Int64] = [:]
        var received: [String: Int64] = [:]
    }
    private let locked = OpsMutex(Tables())

    /// Counts `bytes` more sent of download `name` (called before they are written).
    func sent(_ bytes: Int, of name: String) {
        locked.withLock { $0.sent[name, default: 0] += Int64(bytes) }
    }

    /// Counts `bytes` more received of upload `name`.
    func received(_ bytes: Int, of name: String) {
        locked.withLock { $0.received[name, default: 0] += Int64(bytes) }
    }

    /// Bytes sent so far, by download name.
    var sentBytes: [String: Int64] { locked.withLock { $0.sent } }

    /// Bytes received so far, by upload name.
    var receivedBytes: [String: Int64] { locked.withLock { $0.received } }
}
