import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherMessage {
    /// The message's line in a buffer of its own.
    var buffer: ByteBuffer { ByteBuffer(bytes: encoded) }
}

extension PublisherCore {
    // MARK: Lines

    func resyncLine(_ reason: String) -> ByteBuffer {
        PublisherMessage.resync(reason: reason, seq: ring.head).buffer
    }

    func heartbeatLine() -> ByteBuffer {
        PublisherMessage.heartbeat(time: monitorTime, seq: ring.head).buffer
    }

    /// Where a viewer of the shared-memory stream continues: the delta after `seq` starts at
    /// stream `position` (with `snapshot`: the snapshot for `seq` starts there, the deltas after
    /// it following it).
    static func sharedStreamLine(position: UInt64, seq: UInt64, snapshot: Bool = false) -> ByteBuffer {
        PublisherMessage.sharedStream(position: position, seq: seq, snapshot: snapshot).buffer
    }

    static func skippedLine(from: UInt64, to: UInt64) -> ByteBuffer {
        PublisherMessage.skipped(from: from, to: to).buffer
    }

    static func byeLine(_ reason: String) -> ByteBuffer {
        PublisherMessage.bye(reason: reason).buffer
    }

    static func errorLine(_ code: RemoteErrorCode, _ message: String, request: RequestID?) -> ByteBuffer {
        PublisherMessage.refusal(code, message, request: request).buffer
    }

    /// Compares two secrets in time that depends only on their lengths.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let x = index < left.count ? left[index] : 0
            let y = index < right.count ? right[index] : 0
            difference |= x ^ y
        }
        return difference == 0
    }
}
