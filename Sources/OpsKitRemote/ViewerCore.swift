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

    public let limits: MonitorStore.Limits
    public private(set) var builder: EventSnapshotBuilder
    /// The last delta applied.
    public private(set) var lastSeq: UInt64?
    public private(set) var welcome: Welcome?
    private var phase = Phase.waitingForWelcome
    private var hasPicture = false
    private let decoder = JSONLinesDecoder()

    public init(limits: MonitorStore.Limits = .init()) {
        self.limits = limits
        builder = EventSnapshotBuilder(limits: limits)
    }

    /// Whether deltas are being applied (a snapshot was received and no gap since).
    public var isLive: Bool { if case .live = phase { true } else { false } }

    /// The hello for a new connection, offering to resume where the last one ended.
    public mutating func hello(role: RemoteRole?, token: String?, client: String = "opsdash") -> String {
        phase = .waitingForWelcome
        var line =
            "{\"cmd\":\"hello\",\"min\":\(RemoteProtocol.versions.lowerBound),\"max\":\(RemoteProtocol.versions.upperBound),"
        line += "\"client\":\(jsonString(client))"
        if let role { line += ",\"role\":\"\(role.rawValue)\"" }
        if let token { line += ",\"token\":\(jsonString(token))" }
        if let welcome, let lastSeq, hasPicture {
            line += ",\"resume\":{\"epoch\":\(jsonString(welcome.epoch)),\"seq\":\(lastSeq)}"
        }
        return line + "}\n"
    }

    /// Reads one server line.
    public mutating func receive(_ bytes: some Collection<UInt8>) -> [Output] {
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
        case .other(let event):
            return other(event, decoded.fields, seq: decoded.seq)
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
    public mutating func sharedStreamLagged() -> [Output] {
        resync("fell behind the shared stream")
    }

    /// Asks the publisher for the deltas through its shared-memory stream (after `welcome`
    /// offered one and it could be mapped), and for the snapshots it waits for as well.
    public static let sharedStreamRequest = "{\"cmd\":\"shm\",\"snapshots\":true}\n"

    private mutating func resync(_ reason: String) -> [Output] {
        phase = .waitingForSnapshot
        return [.send("{\"cmd\":\"resync\"}\n"), .resyncing(reason)]
    }

    private mutating func other(_ event: String, _ fields: [String: JSONValue], seq: UInt64?) -> [Output] {
        switch event {
        case "welcome":
            let next = Welcome(
                app: fields["app"]?.stringValue ?? "?", queue: fields["queue"]?.stringValue ?? "?",
                pid: Int(fields["pid"]?.intValue ?? 0),
                role: fields["role"]?.stringValue.flatMap(RemoteRole.init(rawValue:)) ?? .observer,
                epoch: fields["epoch"]?.stringValue ?? "", protocolVersion: Int(fields["protocol"]?.intValue ?? 1),
                sharedStream: fields["shm"]?.stringValue)
            if welcome?.epoch != next.epoch {
                builder = EventSnapshotBuilder(limits: limits)
                lastSeq = nil
                hasPicture = false
            }
            welcome = next
            phase = fields["resumed"]?.boolValue == true && hasPicture ? .live : .waitingForSnapshot
            return [.welcome(next)]
        case "audit":
            guard case .live = phase, let seq else { return [] }
            if let gap = check(seq) { return gap }
            let text = fields["text"]?.stringValue ?? ""
            // Into the picture's event log, so every viewer sees who did what.
            let current = builder.snapshot()
            let time =
                fields["t"]?.doubleValue.flatMap { $0 >= 0 && $0 < 1e9 ? Duration.nanoseconds(Int64($0 * 1e9)) : nil }
                ?? current.time
            builder.apply(
                .queue(
                    time: time, isSuspended: current.isSuspended,
                    maxConcurrentOperationCount: current.maxConcurrentOperationCount,
                    counts: current.counts, reason: text))
            return [.audit(text)]
        case "skipped":
            guard case .live = phase, let from = fields["from"]?.intValue, let to = fields["to"]?.intValue, from <= to
            else { return [] }
            if UInt64(from) != (lastSeq ?? 0) + 1 { return resync("missed \((lastSeq ?? 0) + 1)…\(from - 1)") }
            lastSeq = UInt64(to)
            return []
        case "shm":
            if fields["snapshot"]?.boolValue == true {
                // The snapshot this viewer waits for is in the stream, deltas after it.
                guard case .waitingForSnapshot = phase, let position = fields["position"]?.intValue, position >= 0
                else { return [] }
                return [.sharedStream(position: UInt64(position))]
            }
            guard case .live = phase, let position = fields["position"]?.intValue, position >= 0,
                let seq = fields["seq"]?.intValue
            else { return [] }
            let last = lastSeq ?? 0
            if seq != last { return resync("shared stream starts after \(seq), last applied \(last)") }
            return [.sharedStream(position: UInt64(position))]
        case "heartbeat":
            if let time = fields["t"]?.doubleValue, time >= 0, time < 1e9 {
                builder.advance(to: .nanoseconds(Int64(time * 1e9)))
            }
            guard case .live = phase, let seq, seq > (lastSeq ?? 0) else { return [] }
            return resync("missed \((lastSeq ?? 0) + 1)…\(seq)")
        case "resync":
            phase = .waitingForSnapshot
            return [.resyncing(fields["reason"]?.stringValue ?? "publisher asked")]
        case "reply":
            let request: String? =
                switch fields["id"] {
                case .string(let text)?: text
                case .int(let number)?: "\(number)"
                default: nil
                }
            return [
                .reply(
                    request: request, ok: fields["ok"]?.boolValue ?? false, code: fields["error"]?.stringValue,
                    message: fields["message"]?.stringValue, seq: fields["seq"]?.intValue.map { UInt64(max(0, $0)) })
            ]
        case "error":
            return [
                .error(code: fields["code"]?.stringValue ?? "internal", message: fields["message"]?.stringValue ?? "")
            ]
        case "bye":
            return [.bye(fields["reason"]?.stringValue ?? "")]
        default:
            return []  // pong and events this viewer does not know
        }
    }
}
