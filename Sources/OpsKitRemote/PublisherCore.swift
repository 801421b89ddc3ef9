import NIOCore
import OpsKit
import OpsMonitor

/// The publisher's side of `opsdash/1` as a pure state machine: monitor events, inbound lines
/// and ticks go in; lines to send, connections to close and commands to carry out come out. No
/// sockets, threads or clocks: the caller passes the time and says which connections can take
/// more bytes. Every event is encoded once into the shared `EventRing`; each viewer only has a
/// cursor into it. See docs/PROTOCOL.md.
public struct PublisherCore {
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

        public init() {}
    }

    /// Who publishes: shown to viewers in `welcome` and in listings.
    public struct Identity: Sendable {
        public var app: String
        public var queue: String
        public var pid: Int
        /// Random per publisher start: a viewer that sees a new epoch starts clean.
        public var epoch: String

        public init(app: String, queue: String, pid: Int, epoch: String) {
            self.app = app
            self.queue = queue
            self.pid = pid
            self.epoch = epoch
        }
    }

    /// How a connection reached the publisher.
    public enum Peer: Sendable, Equatable {
        /// A Unix socket peer whose uid the kernel vouched for (already allowed).
        case local(uid: UInt32)
        /// A TCP peer; it must present a token in its hello.
        case network(address: String)
    }

    /// Who may do what.
    public struct Access: Sendable {
        /// Whether local peers (and holders of the control token) may send commands.
        public var allowControl: Bool
        /// The TCP tokens; nil disables that kind of access over TCP.
        public var readToken: String?
        public var controlToken: String?

        public init(allowControl: Bool = false, readToken: String? = nil, controlToken: String? = nil) {
            self.allowControl = allowControl
            self.readToken = readToken
            self.controlToken = controlToken
        }
    }

    /// What the shell must do.
    public enum Output: Sendable {
        /// Write these buffers (each holds one or more whole lines) to the connection, in order.
        case send(Int, [ByteBuffer])
        /// Write these lines after `delay`, then close (a wrong token).
        case sendLaterAndClose(Int, [ByteBuffer], delay: Duration)
        /// Close the connection (after what was sent).
        case close(Int)
        /// Carry out a controller's command, then call `commandDone`.
        case execute(Int, RemoteCommand, request: String?)
    }

    private enum Phase {
        case hello(deadline: Duration)
        case streaming
        case closed
    }

    private struct Connection {
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
    }

    /// Bytes of encoded lines per ring batch (one buffer): a batch is freed only once the ring
    /// dropped all of its lines, so the ring holds at most this much more than its byte limit.
    static let batchBytes = 64 * 1024

    public let identity: Identity
    public let configuration: Configuration
    public let access: Access
    private var ring: EventRing
    private var connections: [Int: Connection] = [:]
    private var encoder = JSONLinesEncoder(progressInterval: .zero)
    /// Operations added and not finished, for `cancel` checks.
    private var unfinished: Set<Int> = []
    /// The monitor's clock at the last publish.
    private var monitorTime: Duration = .zero
    /// Events were numbered without encoding (nobody connected): the encoder's operation names
    /// are stale until the next keyframe re-teaches them.
    private var encoderIsCold = false
    /// Resyncs and commands so far (`tally` adds the viewers).
    private var counted = RemoteTally()

    public init(identity: Identity, configuration: Configuration = .init(), access: Access = .init()) {
        self.identity = identity
        self.configuration = configuration
        self.access = access
        ring = EventRing(capacity: configuration.ringCapacity, byteLimit: configuration.ringBytes)
    }

    // MARK: Reading

    /// The newest delta's seq.
    public var head: UInt64 { ring.head }
    /// Connections that said hello and are streaming, by role.
    public var viewerCount: Int {
        connections.values.filter { if case .streaming = $0.phase { true } else { false } }.count
    }
    /// Whether some viewer waits for a keyframe: pass a snapshot to the next `publish`.
    public var needsKeyframe: Bool {
        connections.values.contains { $0.wantsKeyframe }
    }
    /// Whether any connection is open (said hello or not).
    public var hasConnections: Bool { !connections.isEmpty }

    /// The monitor recorded nothing for a while (nobody was connected): the history before now
    /// can no longer be resumed, and operation names and ids come from the next keyframe.
    public mutating func recordingResumed() {
        ring.clear()
        encoderIsCold = true
    }

    /// Viewers by role, resyncs and commands so far (for metrics).
    public var tally: RemoteTally {
        var tally = counted
        for connection in connections.values {
            guard case .streaming = connection.phase else { continue }
            tally.clients[connection.role.rawValue, default: 0] += 1
        }
        return tally
    }

    /// Bytes the ring holds (shared by every viewer).
    public var ringBytes: Int { ring.bytes }

    // MARK: Connections

    /// A new connection (a local one already passed the peer check).
    public mutating func connect(_ id: Int, peer: Peer, now: Duration) {
        let who: String
        switch peer {
        case .local(let uid): who = "uid \(uid)"
        case .network(let address): who = "tcp \(address)"
        }
        connections[id] = Connection(
            peer: peer, phase: .hello(deadline: now + configuration.helloTimeout), who: who, lastSent: now,
            tokens: configuration.lineBurst, lastRefill: now)
    }

    /// The connection is gone.
    public mutating func disconnect(_ id: Int) {
        connections[id] = nil
    }

    /// Whether the connection's socket can take more bytes now.
    public mutating func setWritable(_ id: Int, _ writable: Bool) {
        connections[id]?.writable = writable
    }

    /// A line longer than the limit arrived: framing is lost, so the connection closes.
    public mutating func lineTooLong(_ id: Int) -> [Output] {
        guard connections[id] != nil else { return [] }
        connections[id]?.phase = .closed
        return [
            .send(
                id,
                [
                    Self.errorLine(
                        .lineTooLong, "line longer than \(RemoteProtocol.maximumLineLength) bytes", request: nil)
                ]), .close(id),
        ]
    }

    /// One inbound line (without its newline).
    public mutating func receive(_ id: Int, line: some Collection<UInt8>, now: Duration) -> [Output] {
        guard var connection = connections[id] else { return [] }
        if case .closed = connection.phase { return [] }
        defer { connections[id] = connection }
        // Rate limit: a token per line, refilled continuously.
        connection.tokens = min(
            configuration.lineBurst,
            connection.tokens + (now - connection.lastRefill).seconds * configuration.linesPerSecond)
        connection.lastRefill = now
        let object: [String: JSONValue]
        do {
            guard case .object(let parsed) = try JSONLineParser.parse(line) else {
                return refuse(&connection, id, .badLine, "line is not a JSON object", request: nil)
            }
            object = parsed
        } catch {
            return refuse(&connection, id, .badLine, error.message, request: nil)
        }
        let request = Self.requestID(object["id"])
        guard connection.tokens >= 1 else {
            return refuse(
                &connection, id, .rateLimited, "more than \(Int(configuration.linesPerSecond)) lines per second",
                request: request)
        }
        connection.tokens -= 1
        guard let cmd = object["cmd"]?.stringValue else {
            return refuse(&connection, id, .badLine, "line has no \"cmd\" string", request: request)
        }
        if case .hello = connection.phase {
            guard cmd == "hello" else {
                connection.phase = .closed
                return [
                    .send(id, [Self.errorLine(.badLine, "the first line must be a hello", request: request)]),
                    .close(id),
                ]
            }
            return hello(&connection, id, object, now: now)
        }
        return command(&connection, id, cmd, object, request: request)
    }

    /// Refuses a line (`command`: counted as that command refused with `code`).
    private mutating func refuse(
        _ connection: inout Connection, _ id: Int, _ code: RemoteErrorCode, command: String? = nil, _ message: String,
        request: String?
    ) -> [Output] {
        if let command { counted.countCommand(command, code.rawValue) }
        connection.refusals += 1
        let line = Self.errorLine(code, message, request: request)
        if connection.refusals > configuration.maximumRefusals {
            connection.phase = .closed
            return [.send(id, [line, Self.byeLine("too many refused lines")]), .close(id)]
        }
        if case .hello = connection.phase {
            connection.phase = .closed
            return [.send(id, [line]), .close(id)]
        }
        return [.send(id, [line])]
    }

    private mutating func hello(_ connection: inout Connection, _ id: Int, _ object: [String: JSONValue], now: Duration)
        -> [Output]
    {
        let request = Self.requestID(object["id"])
        let low = object["min"]?.intValue ?? 1
        let high = object["max"]?.intValue ?? low
        let version = min(high, Int64(RemoteProtocol.versions.upperBound))
        guard version >= max(low, Int64(RemoteProtocol.versions.lowerBound)) else {
            connection.phase = .closed
            var line = "{\"event\":\"error\",\"code\":\"unsupported_protocol\",\"message\":"
            line += jsonString(
                "this publisher speaks opsdash/\(RemoteProtocol.versions.lowerBound)…\(RemoteProtocol.versions.upperBound)"
            )
            line +=
                ",\"supported\":{\"min\":\(RemoteProtocol.versions.lowerBound),\"max\":\(RemoteProtocol.versions.upperBound)}}\n"
            return [.send(id, [ByteBuffer(string: line)]), .close(id)]
        }
        var mayControl = access.allowControl
        if case .network = connection.peer {
            let token = object["token"]?.stringValue ?? ""
            if let control = access.controlToken, access.allowControl, Self.constantTimeEqual(token, control) {
                mayControl = true
            } else if let read = access.readToken, Self.constantTimeEqual(token, read) {
                mayControl = false
            } else {
                connection.phase = .closed
                return [
                    .sendLaterAndClose(
                        id,
                        [
                            Self.errorLine(
                                .unauthorized, token.isEmpty ? "a token is required" : "wrong token", request: request)
                        ],
                        delay: configuration.wrongTokenDelay)
                ]
            }
            connection.who += mayControl ? " (control token)" : " (read token)"
        }
        let asked = object["role"]?.stringValue.flatMap(RemoteRole.init(rawValue:))
        connection.role = mayControl && asked != .observer ? .controller : .observer
        connection.phase = .streaming
        var resumed = false
        if let resume = object["resume"]?.objectValue, resume["epoch"]?.stringValue == identity.epoch,
            let seq = resume["seq"]?.intValue, seq >= 0, UInt64(seq) <= ring.head, UInt64(seq) + 1 >= ring.first
        {
            connection.cursor = UInt64(seq) + 1
            resumed = true
        } else {
            connection.wantsKeyframe = true
        }
        var line = "{\"event\":\"welcome\",\"protocol\":\(version),\"app\":\(jsonString(identity.app)),"
        line +=
            "\"queue\":\(jsonString(identity.queue)),\"pid\":\(identity.pid),\"role\":\"\(connection.role.rawValue)\","
        line += "\"epoch\":\(jsonString(identity.epoch)),\"seq\":\(ring.head),\"resumed\":\(resumed),"
        line += "\"heartbeat\":\(configuration.heartbeat.seconds),\"max_line\":\(RemoteProtocol.maximumLineLength)}\n"
        connection.lastSent = now
        return [.send(id, [ByteBuffer(string: line)])]
    }

    private mutating func command(
        _ connection: inout Connection, _ id: Int, _ cmd: String, _ object: [String: JSONValue], request: String?
    ) -> [Output] {
        let parsed: RemoteCommand
        switch cmd {
        case "resync":
            connection.wantsKeyframe = true
            connection.pending = []
            counted.resyncs["asked", default: 0] += 1
            return [.send(id, [resyncLine("asked")])]
        case "ping":
            return [
                .send(
                    id, [ByteBuffer(string: "{\"event\":\"pong\"\(Self.requestField(request)),\"seq\":\(ring.head)}\n")]
                )
            ]
        case "hello":
            return refuse(&connection, id, .badArgument, "hello was already said", request: request)
        case "cancel":
            guard let op = object["op"]?.intValue, let operation = Int(exactly: op) else {
                return refuse(
                    &connection, id, .badArgument, command: cmd, "cancel needs \"op\": an operation id",
                    request: request)
            }
            parsed = .cancel(operationID: operation)
        case "cancel_all":
            guard object["confirm"]?.boolValue == true else {
                return refuse(
                    &connection, id, .badArgument, command: cmd, "cancel_all needs \"confirm\": true", request: request)
            }
            parsed = .cancelAll
        case "suspend": parsed = .suspend
        case "resume": parsed = .resume
        case "set_limit":
            guard let limit = object["limit"]?.intValue, let value = Int(exactly: limit),
                RemoteProtocol.limitRange.contains(value)
            else {
                return refuse(
                    &connection, id, .badArgument, command: cmd,
                    "set_limit needs \"limit\": \(RemoteProtocol.limitRange.lowerBound)…\(RemoteProtocol.limitRange.upperBound)",
                    request: request)
            }
            parsed = .setLimit(value)
        default:
            return refuse(&connection, id, .unknownCommand, "unknown command \"\(cmd)\"", request: request)
        }
        guard connection.role == .controller else {
            return refuse(
                &connection, id, .forbidden, command: cmd, "read-only viewer: \(parsed.name) needs the controller role",
                request: request)
        }
        if case .cancel(let operation) = parsed, !unfinished.contains(operation) {
            return refuse(
                &connection, id, .notFound, command: cmd, "no unfinished operation #\(operation)", request: request)
        }
        return [.execute(id, parsed, request: request)]
    }

    /// The shell carried out `command` for connection `id` and published its effect: records the
    /// audit line (broadcast to every viewer) and answers with the seq that shows it.
    public mutating func commandDone(_ id: Int, _ command: RemoteCommand, request: String?) -> [Output] {
        let who = connections[id]?.who ?? "a viewer"
        counted.countCommand(command.name, "ok")
        var line = "{\"t\":"
        JSONLinesEncoder.appendTime(monitorTime, &line)
        line += ",\"event\":\"audit\",\"seq\":\(ring.head + 1),\"by\":\(jsonString(who)),\"cmd\":\"\(command.name)\""
        switch command {
        case .cancel(let op): line += ",\"op\":\(op)"
        case .setLimit(let limit): line += ",\"limit\":\(limit)"
        default: break
        }
        line += ",\"text\":\(jsonString(command.audit(by: who)))}\n"
        let seq = ring.append(ByteBuffer(string: line))
        guard connections[id] != nil else { return [] }
        return [
            .send(
                id,
                [ByteBuffer(string: "{\"event\":\"reply\"\(Self.requestField(request)),\"ok\":true,\"seq\":\(seq)}\n")])
        ]
    }

    // MARK: Events

    /// Appends the monitor's new events to the ring (each encoded once, numbered), at monitor
    /// time `monitorTime`. With `snapshot` (taken together with the events), viewers waiting
    /// for a keyframe get one consistent with the new head.
    public mutating func publish(_ events: [MonitorEvent], snapshot: QueueSnapshot?, monitorTime: Duration) {
        self.monitorTime = max(self.monitorTime, monitorTime)
        if connections.isEmpty {
            // Nobody to send to: keep the numbering and the bookkeeping, skip the encoding.
            for event in events {
                switch event {
                case .added(_, let id, _, _, _, _): unfinished.insert(id)
                case .state(_, let id, _, .finished, _, _): unfinished.remove(id)
                default: break
                }
            }
            ring.skip(events.count)
            encoderIsCold = encoderIsCold || !events.isEmpty
            return
        }
        if encoderIsCold, let snapshot {
            // Names of operations added while nobody watched, for the state lines to come.
            encoder = JSONLinesEncoder(progressInterval: .zero)
            var scratch = ""
            for op in snapshot.operations where op.lifecycle != .finished {
                encoder.encode(
                    .added(
                        time: op.addedAt, id: op.id, name: op.name, kind: op.kind, totalBytes: op.totalBytes,
                        dependencies: []), into: &scratch)
                scratch.removeAll(keepingCapacity: true)
            }
            encoderIsCold = false
        }
        // Lines are encoded into batches of up to `batchBytes` (one buffer each, shared by every
        // viewer), numbered from the ring's head on.
        var text = ""
        var batch = ""
        var lines: [EventRing.Line] = []
        var seq = ring.head
        for event in events {
            text.removeAll(keepingCapacity: true)
            encoder.encode(event, into: &text)
            var progressOf: Int?
            switch event {
            case .added(_, let id, _, _, _, _): unfinished.insert(id)
            case .state(_, let id, _, .finished, _, _): unfinished.remove(id)
            case .progress(_, let id, _, _, _, _): progressOf = id
            default: break
            }
            // The encoder writes whole lines ending in "}\n": the seq goes before the brace.
            guard text.hasSuffix("}\n") else { continue }
            text.removeLast(2)
            seq += 1
            text += ",\"seq\":\(seq)}\n"
            lines.append(EventRing.Line(length: text.utf8.count, progressOf: progressOf))
            batch += text
            if batch.utf8.count >= Self.batchBytes {
                ring.append(batch: ByteBuffer(string: batch), lines: lines)
                batch.removeAll(keepingCapacity: true)
                lines.removeAll(keepingCapacity: true)
            }
        }
        if !lines.isEmpty { ring.append(batch: ByteBuffer(string: batch), lines: lines) }
        if let snapshot, needsKeyframe {
            unfinished = Set(snapshot.operations.lazy.filter { $0.lifecycle != .finished }.map(\.id))
            // One buffer for the whole keyframe, shared by every viewer that waits for it.
            let keyframe = ByteBuffer(string: KeyframeEncoder.lines(snapshot, seq: ring.head))
            for (id, var connection) in connections where connection.wantsKeyframe {
                connection.wantsKeyframe = false
                connection.pending = [keyframe]
                connection.cursor = ring.head + 1
                connections[id] = connection
            }
        }
    }

    /// Sends what each writable viewer has not had yet (keyframe lines, then deltas from its
    /// cursor, leaving out superseded progress while it lags), heartbeats to idle viewers, and
    /// closes connections that said no hello in time.
    public mutating func flush(now: Duration) -> [Output] {
        var outputs: [Output] = []
        for id in connections.keys.sorted() {
            guard var connection = connections[id] else { continue }
            switch connection.phase {
            case .closed:
                continue
            case .hello(let deadline):
                if now >= deadline {
                    connection.phase = .closed
                    let seconds = configuration.helloTimeout.seconds
                    let text = seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
                    outputs.append(.send(id, [Self.byeLine("no hello within \(text) s")]))
                    outputs.append(.close(id))
                }
            case .streaming:
                if let lines = lines(for: &connection, now: now), !lines.isEmpty {
                    outputs.append(.send(id, lines))
                    connection.lastSent = now
                }
            }
            connections[id] = connection
        }
        return outputs
    }

    private mutating func lines(for connection: inout Connection, now: Duration) -> [ByteBuffer]? {
        guard connection.writable, !connection.wantsKeyframe else { return nil }
        var lines = OutgoingBytes(connection.pending)
        connection.pending = []
        if connection.cursor < ring.first {
            connection.wantsKeyframe = true
            counted.resyncs["lagged", default: 0] += 1
            lines.append(resyncLine("lagged"))
            return lines.take()
        }
        let coalesce =
            ring.head >= connection.cursor && ring.head - connection.cursor >= UInt64(configuration.coalesceLag)
        var skippedFrom: UInt64?
        var count = 0
        while connection.cursor <= ring.head, count < configuration.batchLines,
            let entry = ring.entry(connection.cursor)
        {
            if !coalesce || !entry.batchHasProgress {
                // Nothing to leave out: the rest of the batch (up to the limit) as one slice.
                var last = min(entry.batchLast, connection.cursor + UInt64(configuration.batchLines - count) - 1)
                let end = ring.entry(last)
                if end == nil { last = entry.seq }
                if let from = skippedFrom {
                    lines.append(Self.skippedLine(from: from, to: entry.seq - 1))
                    skippedFrom = nil
                }
                lines.append(entry, through: end ?? entry)
                count += Int(last - entry.seq) + 1
                connection.cursor = last + 1
                continue
            }
            if entry.superseded {
                if skippedFrom == nil { skippedFrom = entry.seq }
            } else {
                if let from = skippedFrom {
                    lines.append(Self.skippedLine(from: from, to: entry.seq - 1))
                    skippedFrom = nil
                }
                lines.append(entry)
                count += 1
            }
            connection.cursor += 1
        }
        if let from = skippedFrom { lines.append(Self.skippedLine(from: from, to: connection.cursor - 1)) }
        if lines.isEmpty, now - connection.lastSent >= configuration.heartbeat {
            var line = "{\"t\":"
            JSONLinesEncoder.appendTime(monitorTime, &line)
            line += ",\"event\":\"heartbeat\",\"seq\":\(ring.head)}\n"
            lines.append(ByteBuffer(string: line))
        }
        return lines.take()
    }

    /// Says goodbye to every connection and closes them.
    public mutating func shutdown(reason: String) -> [Output] {
        var outputs: [Output] = []
        for id in connections.keys.sorted() {
            if case .closed = connections[id]?.phase { continue }
            outputs.append(.send(id, [Self.byeLine(reason)]))
            outputs.append(.close(id))
            connections[id]?.phase = .closed
        }
        return outputs
    }

    // MARK: Lines

    private func resyncLine(_ reason: String) -> ByteBuffer {
        ByteBuffer(string: "{\"event\":\"resync\",\"reason\":\(jsonString(reason)),\"seq\":\(ring.head)}\n")
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
