import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
    /// Limits and timings.
    public struct Configuration: Sendable {
        /// Lines and bytes the shared ring holds; a viewer further behind is resynced.
        public var ringCapacity = 32_768
        public var ringBytes = 8 << 20
        /// Time a new connection has to say hello.
        public var helloTimeout: Duration = .seconds(10)
        /// A viewer that was sent nothing for this long gets a heartbeat.
        public var heartbeat: Duration = .seconds(2)
        /// Lines behind the head from which superseded progress lines are left out.
        public var coalesceLag = 256
        /// Lines sent to one viewer per flush at most.
        public var batchLines = 1_024
        /// Inbound lines per second per connection (sustained) and in a burst.
        public var linesPerSecond = 20.0
        public var lineBurst = 40.0
        /// Refused lines after which a connection is closed.
        public var maximumRefusals = 200
        /// Wait before answering a wrong token.
        public var wrongTokenDelay: Duration = .seconds(1)
        /// Changes per second from which the queue is in a burst, once half `ringCapacity`
        /// changes came that fast (0: never): no viewer can follow every change, so none is
        /// encoded; viewers get `resync` (reason `burst`) and a fresh picture every
        /// `burstKeyframeInterval`, and deltas again once the rate stayed under half of this
        /// for `burstCalmSpan`.
        public var burstRate = 250_000.0
        /// How often viewers get a fresh picture during a burst.
        public var burstKeyframeInterval: Duration = .seconds(2)
        /// How long the rate must stay under half of `burstRate` for a burst to end. Ending one
        /// costs a snapshot of the whole queue, so a pause in the middle (the app's threads
        /// held while a large batch is added: 0.1–0.5 s for 100,000 operations) must not end
        /// it.
        public var burstCalmSpan: Duration = .milliseconds(500)

        public init() {}
    }

    /// Who publishes: shown to viewers in `welcome` and in listings.
    @_spi(OpsDashInternals) public struct Identity: Sendable {
        @_spi(OpsDashInternals) public var app: String
        @_spi(OpsDashInternals) public var queue: String
        @_spi(OpsDashInternals) public var pid: Int
        /// Random per publisher start: a viewer that sees a new epoch starts clean.
        @_spi(OpsDashInternals) public var epoch: String

        @_spi(OpsDashInternals) public init(app: String, queue: String, pid: Int, epoch: String) {
            self.app = app
            self.queue = queue
            self.pid = pid
            self.epoch = epoch
        }
    }

    /// How a connection reached the publisher.
    @_spi(OpsDashInternals) public enum Peer: Sendable, Equatable {
        /// A Unix socket peer whose uid the kernel vouched for (already allowed).
        case local(uid: UInt32)
        /// A TCP peer; it must present a token in its hello.
        case network(address: String)
    }

    /// Who may do what.
    @_spi(OpsDashInternals) public struct Access: Sendable {
        /// Whether local peers (and holders of the control token) may send commands.
        @_spi(OpsDashInternals) public var allowControl: Bool
        /// The TCP tokens; nil disables that kind of access over TCP.
        @_spi(OpsDashInternals) public var readToken: String?
        @_spi(OpsDashInternals) public var controlToken: String?

        @_spi(OpsDashInternals) public init(
            allowControl: Bool = false, readToken: String? = nil, controlToken: String? = nil
        ) {
            self.allowControl = allowControl
            self.readToken = readToken
            self.controlToken = controlToken
        }
    }

    /// What the shell must do.
    @_spi(OpsDashInternals) public enum Output: Sendable {
        /// Write these buffers (each holds one or more whole lines) to the connection, in order.
        case send(Int, [ByteBuffer])
        /// Write these lines after `delay`, then close (a wrong token).
        case sendLaterAndClose(Int, [ByteBuffer], delay: Duration)
        /// Close the connection (after what was sent).
        case close(Int)
        /// Carry out a controller's command, then call `commandDone`.
        case execute(Int, RemoteCommand, request: RequestID?)
        /// Answer a `status` request with `statusLine` and the queue's current counts.
        case status(Int, request: RequestID?)
    }
}
