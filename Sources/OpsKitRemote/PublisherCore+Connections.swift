import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
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
    mutating func refuse(
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

    mutating func hello(_ connection: inout Connection, _ id: Int, _ object: [String: JSONValue], now: Duration)
        -> [Output]
    {
        let request = Self.requestID(object["id"])
        // Both bounds are required integers: a hello without them is malformed, not "version 1".
        guard let low = object["min"]?.intValue, let high = object["max"]?.intValue else {
            return refuse(
                &connection, id, .badArgument, "hello needs integer \"min\" and \"max\" protocol versions",
                request: request)
        }
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
        if !isInBurst, let resume = object["resume"]?.objectValue, resume["epoch"]?.stringValue == identity.epoch,
            let seq = resume["seq"]?.intValue, seq >= 0, UInt64(seq) <= ring.head, UInt64(seq) + 1 >= ring.first
        {
            connection.cursor = UInt64(seq) + 1
            resumed = true
        } else {
            connection.wantsKeyframe = true
            if isInBurst {
                connection.notice = resyncLine(Self.burstReason)
                counted.resyncs[Self.burstReason, default: 0] += 1
            }
        }
        var line = "{\"event\":\"welcome\",\"protocol\":\(version),\"app\":\(jsonString(identity.app)),"
        line +=
            "\"queue\":\(jsonString(identity.queue)),\"pid\":\(identity.pid),\"role\":\"\(connection.role.rawValue)\","
        line += "\"epoch\":\(jsonString(identity.epoch)),\"seq\":\(ring.head),\"resumed\":\(resumed),"
        line += "\"heartbeat\":\(configuration.heartbeat.seconds),\"max_line\":\(RemoteProtocol.maximumLineLength)"
        if case .local = connection.peer, let shared = ring.mirror { line += ",\"shm\":\(jsonString(shared.path))" }
        line += "}\n"
        connection.lastSent = now
        return [.send(id, [ByteBuffer(string: line)])]
    }
}
