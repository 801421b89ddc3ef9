/// A line the publisher sends that is not a stream event or snapshot line: the messages of the
/// `opsdash/1` session (docs/PROTOCOL.md). `encoded` writes the exact bytes of the wire (`seq`
/// included, where the message has one); `decode` reads them back, strictly.
package enum PublisherMessage: Sendable, Equatable {
    /// The answer to a hello.
    case welcome(Welcome)
    /// A command was carried out; `seq` is the audit delta that records it.
    case reply(request: RequestID?, seq: UInt64)
    /// A line with a usable `id` was refused.
    case refused(request: RequestID, code: RemoteErrorCode, message: String)
    /// A line without a usable `id` was refused (`supported`: the versions, for
    /// `unsupported_protocol`).
    case error(code: RemoteErrorCode, message: String, supported: ClosedRange<Int>? = nil)
    /// The answer to `ping`: the newest delta.
    case pong(request: RequestID?, seq: UInt64)
    /// A snapshot follows (the viewer lagged, asked, or the app bursts); `seq` is the newest delta.
    case resync(reason: String, seq: UInt64)
    /// The app is alive; `seq` is the newest delta, `time` the app's clock.
    case heartbeat(time: Duration?, seq: UInt64)
    /// The delta after `seq` (or, with `snapshot`, the snapshot for `seq`) starts at `position`
    /// of the shared-memory stream.
    case sharedStream(position: UInt64, seq: UInt64, snapshot: Bool)
    /// Superseded progress lines `from`…`to` were left out for a lagging viewer.
    case skipped(from: UInt64, to: UInt64)
    /// A numbered delta recording a carried-out command.
    case audit(Audit)
    /// The publisher closes the connection.
    case bye(reason: String)
    /// The answer to `status`: the queue's counts and settings, without its operations.
    case status(Status)

    /// What `welcome` says.
    package struct Welcome: Sendable, Equatable {
        package var protocolVersion: Int
        package var app: String
        package var queue: String
        package var pid: Int
        package var role: RemoteRole
        package var epoch: String
        package var seq: UInt64
        package var resumed: Bool
        /// Seconds between heartbeats.
        package var heartbeat: Double?
        package var maximumLine: Int?
        /// The shared-memory stream's path (local viewers, when offered).
        package var sharedStream: String?

        package init(
            protocolVersion: Int, app: String, queue: String, pid: Int, role: RemoteRole, epoch: String,
            seq: UInt64, resumed: Bool, heartbeat: Double? = nil, maximumLine: Int? = nil,
            sharedStream: String? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.app = app
            self.queue = queue
            self.pid = pid
            self.role = role
            self.epoch = epoch
            self.seq = seq
            self.resumed = resumed
            self.heartbeat = heartbeat
            self.maximumLine = maximumLine
            self.sharedStream = sharedStream
        }
    }

    /// What an `audit` delta says: who (`by`) carried out which command (`cmd`, with its
    /// argument), and the text every viewer shows.
    package struct Audit: Sendable, Equatable {
        package var time: Duration
        package var seq: UInt64
        package var by: String
        package var command: String
        /// `op`: the operation a `cancel` named.
        package var operation: Int?
        /// `limit`: the limit a `set_limit` set.
        package var limit: Int?
        /// `count`: the operations a `cancel_many` cancelled.
        package var count: Int?
        package var text: String

        package init(
            time: Duration, seq: UInt64, by: String, command: String, operation: Int? = nil, limit: Int? = nil,
            count: Int? = nil, text: String
        ) {
            self.time = time
            self.seq = seq
            self.by = by
            self.command = command
            self.operation = operation
            self.limit = limit
            self.count = count
            self.text = text
        }
    }

    /// A refusal as it goes back: a `reply` when the line had a usable id, else an `error`.
    package static func refusal(_ code: RemoteErrorCode, _ message: String, request: RequestID?) -> PublisherMessage {
        if let request { return .refused(request: request, code: code, message: message) }
        return .error(code: code, message: message)
    }
}
