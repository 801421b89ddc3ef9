import OpsMonitor
import OpsWire

/// The viewer's side of `opsdash/1` as a pure state machine: server lines go in; the rebuilt
/// picture, applied events and lines to send come out. Applies a delta only when its `seq` is
/// one past the last; on a gap it asks for a resync and waits for a fresh snapshot, keeping the
/// last picture meanwhile. A new epoch (the app restarted) starts a clean picture.
public struct ViewerCore: Sendable {
    /// What the publisher said about itself.
    public struct Welcome: Sendable, Equatable {
        public var app: String
        public var queue: String
        public var pid: Int
        public var role: RemoteRole
        public var epoch: String
        public var protocolVersion: Int
        /// Where the shared-memory stream of deltas is, when offered (local viewers only).
        public var sharedStream: String?
        public var label: String { "\(app)/\(queue)" }
    }

    /// Something the caller may act on.
    public enum Output: Sendable {
        /// Write this line (newline included) to the publisher.
        case send(String)
        case welcome(Welcome)
        /// A snapshot replaced the picture (`previous` is the picture before it, nil at the start
        /// or after a new epoch).
        case keyframe(previous: QueueSnapshot?, current: QueueSnapshot)
        /// A delta was applied.
        case event(MonitorEvent)
        /// A command was carried out: "uid 1000 cancelled #3".
        case audit(String)
        /// The answer to a command.
        case reply(request: String?, ok: Bool, code: String?, message: String?, seq: UInt64?)
        /// An error the publisher reported (or a line this viewer could not read).
        case error(code: String, message: String)
        /// The publisher is going away.
        case bye(String)
        /// The picture is being refreshed (a gap, or the publisher said so).
        case resyncing(String)
        /// Read the deltas from the shared-memory stream from this position on (the next one
        /// is the one after the last applied).
        case sharedStream(position: UInt64)
    }

    private enum Phase: Sendable {
        case waitingForWelcome, waitingForSnapshot, live
    }

    @_spi(OpsDashInternals) public let limits: MonitorStore.Limits
    @_spi(OpsDashInternals) public private(set) var builder: EventSnapshotBuilder
    /// The last delta applied.
    @_spi(OpsDashInternals) public private(set) var lastSeq: UInt64?
    @_spi(OpsDashInternals) public private(set) var welcome: Welcome?
    private var phase = Phase.waitingForWelcome
    private var hasPicture = false
    private let decoder = JSONLinesDecoder()

    @_spi(OpsDashInternals) public init(limits: MonitorStore.Limits = .init()) {
        self.limits = limits
        builder = EventSnapshotBuilder(limits: limits)
    }

    /// Whether deltas are being applied (a snapshot was received and no gap since).
    @_spi(OpsDashInternals) public var isLive: Bool { if case .live = phase { true } else { false } }

    /// The hello for a new connection, offering to resume where the last one ended.
    @_spi(OpsDashInternals) public mutating func hello(role: RemoteRole?, token: String?, client: String = "opsdash")
        -> String
    {
        phase = .waitingForWelcome
        var resume: ViewerMessage.Hello.Resume?
        if let welcome, let lastSeq, hasPicture { resume = .init(epoch: welcome.epoch, seq: lastSeq) }
        return ViewerMessage.hello(.init(client: client, role: role, token: token, resume: resume)).text
    }

    /// Reads one server line.
    @_spi(OpsDashInternals) public mutating func receive(_ bytes: some Collection<UInt8>) -> [Output] {
        let decoded: DecodedLine
        do {
            decoded = try decoder.decode(bytes: bytes)
        } catch {
            return [.error(code: error.code.rawValue, message: "unreadable line from the publisher: \(error.message)")]
        }
        switch decoded.line {
        case .event(let event):
            guard case .live = phase, let seq = decoded.seq else { return [] }
            if let gap = check(seq) { return gap }
            builder.apply(event)
            return [.event(event)]
        case .keyframeBegin, .keyframeOperation, .keyframeLog:
            guard case .waitingForSnapshot = phase else { return [] }
            do { try builder.apply(decoded.line) } catch { return resync("bad snapshot: \(error.message)") }
            return []
        case .keyframeEnd(let seq):
            guard case .waitingForSnapshot = phase else { return [] }
            let previous = hasPicture ? builder.snapshot() : nil
            do { try builder.apply(decoded.line) } catch { return resync("bad snapshot: \(error.message)") }
            lastSeq = seq
            phase = .live
            hasPicture = true
            return [.keyframe(previous: previous, current: builder.snapshot())]
        case .summary:
            return []
        case .other:
            let message: PublisherMessage?
            do {
                message = try PublisherMessage.decode(decoded)
            } catch {
                return [
                    .error(code: error.code.rawValue, message: "unreadable line from the publisher: \(error.message)")
                ]
            }
            return message.map { act(on: $0) } ?? []  // events this viewer does not know
        }
    }

    /// Nil when `seq` is the next one (and records it); else the resync that a gap calls for.
    private mutating func check(_ seq: UInt64) -> [Output]? {
        let expected = (lastSeq ?? 0) + 1
        if seq == expected {
            lastSeq = seq
            return nil
        }
        if seq < expected { return [] }  // already applied
        return resync("missed \(expected)…\(seq - 1)")
    }

    /// The shared-memory stream overwrote deltas this viewer had not read: ask for a snapshot.
    @_spi(OpsDashInternals) public mutating func sharedStreamLagged() -> [Output] {
        resync("fell behind the shared stream")
    }

    /// Asks the publisher for the deltas through its shared-memory stream (after `welcome`
    /// offered one and it could be mapped), and for the snapshots it waits for as well.
    @_spi(OpsDashInternals) public static let sharedStreamRequest = ViewerMessage.sharedStream(
        snapshots: true, request: nil
    ).text

    private mutating func resync(_ reason: String) -> [Output] {
        phase = .waitingForSnapshot
        return [.send(ViewerMessage.resync(request: nil).text), .resyncing(reason)]
    }

    private mutating func act(on message: PublisherMessage) -> [Output] {
        switch message {
        case .welcome(let fields):
            return [.welcome(welcomed(fields))]
        case .audit(let audit):
            guard case .live = phase else { return [] }
            if let gap = check(audit.seq) { return gap }
            logAudit(audit)
            return [.audit(audit.text)]
        case .skipped(let from, let to):
            guard case .live = phase else { return [] }
            let last = lastSeq ?? 0
            if from != last + 1 { return resync("missed \(last + 1)…\(Int64(from) - 1)") }
            lastSeq = to
            return []
        case .sharedStream(let position, let seq, let snapshot):
            return joinSharedStream(at: position, seq: seq, snapshot: snapshot)
        case .heartbeat(let time, let seq):
            if let time { builder.advance(to: time) }
            guard case .live = phase, seq > (lastSeq ?? 0) else { return [] }
            return resync("missed \((lastSeq ?? 0) + 1)…\(seq)")
        case .resync(let reason, _):
            phase = .waitingForSnapshot
            return [.resyncing(reason)]
        case .reply(let request, let seq):
            return [.reply(request: request?.text, ok: true, code: nil, message: nil, seq: seq)]
        case .refused(let request, let code, let message):
            return [.reply(request: request.text, ok: false, code: code.rawValue, message: message, seq: nil)]
        case .error(let code, let message, _):
            return [.error(code: code.rawValue, message: message)]
        case .bye(let reason):
            return [.bye(reason)]
        case .pong, .status:
            // A streaming viewer asks for neither status nor pongs it must act on.
            return []
        }
    }

    /// Takes the app's welcome: a new epoch starts a new picture; a resumed session with a
    /// picture goes on live, any other waits for a snapshot.
    private mutating func welcomed(_ fields: PublisherMessage.Welcome) -> Welcome {
        let next = Welcome(
            app: fields.app, queue: fields.queue, pid: fields.pid, role: fields.role, epoch: fields.epoch,
            protocolVersion: fields.protocolVersion, sharedStream: fields.sharedStream)
        if welcome?.epoch != next.epoch {
            builder = EventSnapshotBuilder(limits: limits)
            lastSeq = nil
            hasPicture = false
        }
        welcome = next
        phase = fields.resumed && hasPicture ? .live : .waitingForSnapshot
        return next
    }

    /// Puts `audit` into the picture's event log, so every viewer sees who did what.
    private mutating func logAudit(_ audit: PublisherMessage.Audit) {
        let current = builder.snapshot()
        builder.apply(
            .queue(
                time: audit.time, isSuspended: current.isSuspended,
                maxConcurrentOperationCount: current.maxConcurrentOperationCount,
                counts: current.counts, reason: audit.text))
    }

    /// Reads the shared stream at `position`: its snapshot while waiting for one, its deltas
    /// while live and they start right after the last one applied (a resync otherwise).
    private mutating func joinSharedStream(at position: UInt64, seq: UInt64, snapshot: Bool) -> [Output] {
        if snapshot {
            // The snapshot this viewer waits for is in the stream, deltas after it.
            guard case .waitingForSnapshot = phase else { return [] }
            return [.sharedStream(position: position)]
        }
        guard case .live = phase else { return [] }
        let last = lastSeq ?? 0
        if seq != last { return resync("shared stream starts after \(seq), last applied \(last)") }
        return [.sharedStream(position: position)]
    }
}
