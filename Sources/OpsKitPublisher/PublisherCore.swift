import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

/// The publisher's side of `opsdash/1` as a pure state machine: monitor events, inbound lines
/// and ticks go in; lines to send, connections to close and commands to carry out come out. No
/// sockets, threads or clocks: the caller passes the time and says which connections can take
/// more bytes. Every event is encoded once into the shared `EventRing`; each viewer only has a
/// cursor into it. See docs/PROTOCOL.md.
public struct PublisherCore {
    enum Phase {
        case hello(deadline: Duration)
        case streaming
        case closed
    }

    struct Connection {
        var peer: Peer
        var phase: Phase
        var role: RemoteRole = .observer
        /// "uid 1000" or "tcp 127.0.0.1:5000 (token)": who, in audit lines.
        var who: String
        /// The next seq to send.
        var cursor: UInt64 = 1
        var wantsKeyframe = false
        /// Keyframe lines not sent yet.
        var pending: [ByteBuffer] = []
        var writable = true
        var lastSent: Duration
        var tokens: Double
        var lastRefill: Duration
        var refusals = 0
        /// Whether deltas go through the shared-memory stream instead of the socket.
        var shared = SharedStream.off
        /// A line to send even while the connection waits for a keyframe (the `resync` that
        /// tells it why it waits).
        var notice: ByteBuffer?
        /// It asked for its snapshots through the shared-memory stream too (`shm` with
        /// `"snapshots":true`).
        var sharedSnapshots = false
        /// Its pending lines point it at a keyframe in the shared-memory stream (no socket
        /// keyframe, no further `shm` line).
        var keyframeInStream = false
        /// It said hello with `"summary":true`: no snapshot and no deltas, only `status`
        /// answers and heartbeats (a fleet list; not a viewer, and no reason to record events).
        var summaryOnly = false

        /// Whether it said hello and gets the queue's snapshot and deltas.
        var isStreamingViewer: Bool {
            if case .streaming = phase { !summaryOnly } else { false }
        }
    }

    /// How a viewer gets its deltas.
    enum SharedStream {
        /// Over its socket.
        case off
        /// It asked for the shared-memory stream: tell it where to start at the next flush.
        case asked
        /// From the shared-memory stream; its socket carries only unnumbered lines (heartbeats,
        /// replies, resyncs and their snapshots).
        case on
    }

    /// Bytes of encoded lines per ring batch (one buffer): a batch is freed only once the ring
    /// dropped all of its lines, so the ring holds at most this much more than its byte limit.
    static let batchBytes = 64 * 1024

    @_spi(OpsDashInternals) public let identity: Identity
    @_spi(OpsDashInternals) public let configuration: Configuration
    @_spi(OpsDashInternals) public let access: Access
    var ring: EventRing
    var connections: [Int: Connection] = [:]
    var encoder = JSONLinesEncoder(progressInterval: .zero)
    /// The bytes `publish` encodes a batch into, kept between calls (its capacity is reused).
    var encodeBuffer: [UInt8] = []
    /// Operations added and not finished, for `cancel` checks.
    var unfinished = OperationIDSet()
    /// The monitor's clock at the last publish.
    var monitorTime: Duration = .zero
    /// Events were numbered without encoding (nobody connected): the encoder's operation names
    /// are stale until the next keyframe re-teaches them.
    var encoderIsCold = false
    /// Resyncs and commands so far (`tally` adds the viewers).
    var counted = RemoteTally()
    /// Changes come faster than viewers can follow: no deltas are encoded, every viewer waits
    /// for a keyframe (see `beginBurst`).
    @_spi(OpsDashInternals) public internal(set) var isInBurst = false
    /// A local uid's user name, for audit lines (the system's user database; tests set their own).
    var userName: @Sendable (UInt32) -> String? = { PublisherCore.systemUserName($0) }

    /// A core for `identity`; with `sharedRing`, every delta is also written to that shared-memory
    /// stream and local viewers may read it from there.
    init(
        identity: Identity, configuration: Configuration = .init(), access: Access = .init(),
        sharedRing: SharedRingWriter?
    ) {
        self.identity = identity
        self.configuration = configuration
        self.access = access
        ring = EventRing(capacity: configuration.ringCapacity, byteLimit: configuration.ringBytes)
        ring.mirror = sharedRing
    }

    @_spi(OpsDashInternals) public init(
        identity: Identity, configuration: Configuration = .init(), access: Access = .init()
    ) {
        self.init(identity: identity, configuration: configuration, access: access, sharedRing: nil)
    }

    // MARK: Reading

    /// The newest delta's seq.
    @_spi(OpsDashInternals) public var head: UInt64 { ring.head }
    /// Connections that said hello and are streaming (summary-only ones not counted).
    @_spi(OpsDashInternals) public var viewerCount: Int {
        connections.values.filter(\.isStreamingViewer).count
    }
    /// Whether some viewer waits for a keyframe: pass a snapshot to the next `publish` (never
    /// during a burst: its keyframes come from `burstKeyframe` and `endBurst`).
    @_spi(OpsDashInternals) public var needsKeyframe: Bool {
        !isInBurst && connections.values.contains { $0.wantsKeyframe }
    }
    /// Whether any connection is open that is, or may become, a streaming viewer (one that said
    /// no hello yet counts; a summary-only one does not: it needs no event recording).
    @_spi(OpsDashInternals) public var hasConnections: Bool { connections.values.contains { !$0.summaryOnly } }
    /// The most deltas any streaming viewer that can take more has not been sent yet.
    @_spi(OpsDashInternals) public var deltasWaiting: UInt64 {
        var most: UInt64 = 0
        for connection in connections.values {
            guard connection.isStreamingViewer, connection.writable, connection.shared != .on,
                connection.cursor <= ring.head
            else {
                continue
            }
            most = max(most, ring.head - connection.cursor + 1)
        }
        return most
    }

    /// The monitor recorded nothing for a while (nobody was connected): the history before now
    /// can no longer be resumed, and operation names and ids come from the next keyframe.
    @_spi(OpsDashInternals) public mutating func recordingResumed() {
        ring.clear()
        encoderIsCold = true
        isInBurst = false
    }

    /// Viewers by role, resyncs and commands so far (for metrics).
    @_spi(OpsDashInternals) public var tally: RemoteTally {
        var tally = counted
        for connection in connections.values {
            guard connection.isStreamingViewer else { continue }
            tally.clients[connection.role.rawValue, default: 0] += 1
        }
        return tally
    }

    /// Bytes the ring holds (shared by every viewer).
    @_spi(OpsDashInternals) public var ringBytes: Int { ring.bytes }
}
