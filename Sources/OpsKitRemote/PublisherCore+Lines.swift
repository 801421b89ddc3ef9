import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
    // MARK: Lines

    func resyncLine(_ reason: String) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"resync\",\"reason\":\(jsonString(reason)),\"seq\":\(ring.head)}\n")
    }

    func heartbeatLine() -> ByteBuffer {
        var line = "{\"t\":"
        JSONLinesEncoder.appendTime(monitorTime, &line)
        line += ",\"event\":\"heartbeat\",\"seq\":\(ring.head)}\n"
        return ByteBuffer(string: line)
    }

    /// Where a viewer of the shared-memory stream continues: the delta after `seq` starts at
    /// stream `position`.
    static func sharedStreamLine(position: UInt64, seq: UInt64) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"shm\",\"position\":\(position),\"seq\":\(seq)}\n")
    }

    /// The snapshot this viewer waits for starts at stream `position` (its `snapshot_begin`,
    /// for delta `seq`), and the deltas after it follow it there.
    static func sharedSnapshotLine(position: UInt64, seq: UInt64) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"shm\",\"position\":\(position),\"seq\":\(seq),\"snapshot\":true}\n")
    }

    static func skippedLine(from: UInt64, to: UInt64) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"skipped\",\"from\":\(from),\"to\":\(to)}\n")
    }

    static func byeLine(_ reason: String) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"bye\",\"reason\":\(jsonString(reason))}\n")
    }

    static func errorLine(_ code: RemoteErrorCode, _ message: String, request: String?) -> ByteBuffer {
        if request != nil {
            return ByteBuffer(
                string:
                    "{\"event\":\"reply\"\(requestField(request)),\"ok\":false,\"error\":\"\(code.rawValue)\",\"message\":\(jsonString(message))}\n"
            )
        }
        return ByteBuffer(
            string: "{\"event\":\"error\",\"code\":\"\(code.rawValue)\",\"message\":\(jsonString(message))}\n")
    }

    /// A request id as it goes back: a string, or an integer's digits.
    static func requestID(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?: jsonString(text)
        case .int(let number)?: "\(number)"
        default: nil
        }
    }

    static func requestField(_ request: String?) -> String {
        request.map { ",\"id\":\($0)" } ?? ""
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
