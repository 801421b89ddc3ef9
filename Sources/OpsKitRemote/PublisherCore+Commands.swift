import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
    // MARK: Commands

    mutating func command(
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
        case "shm":
            guard case .local = connection.peer, ring.mirror != nil else {
                return refuse(
                    &connection, id, .badArgument, "no shared-memory stream for this connection", request: request)
            }
            if connection.shared == .off { connection.shared = .asked }
            connection.sharedSnapshots = object["snapshots"]?.boolValue == true
            return []
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

    /// Who connection `id` is, for audit lines and the app's log: "uid 1000 (alice)" (the user
    /// name when the system knows it), "tcp 127.0.0.1:5000 (control token)".
    public func who(_ id: Int) -> String {
        guard let connection = connections[id] else { return "a viewer" }
        guard case .local(let uid) = connection.peer, let name = userName(uid) else { return connection.who }
        return "\(connection.who) (\(name))"
    }

    /// The user name of `uid` from the system's user database, nil when it has none.
    static func systemUserName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &found) == 0, found != nil,
            let name = entry.pw_name
        else { return nil }
        let text = displayable(String(cString: name))
        return text.isEmpty ? nil : text
    }

    /// `text` with control characters shown as `?`, so a user name can't break a log line.
    private static func displayable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "?" : $0 }))
    }

    /// The shell carried out `command` for connection `id` and published its effect: records the
    /// audit line (broadcast to every viewer) and answers with the seq that shows it. `before`
    /// is what the queue was like just before (the audit text says "limit 3→4").
    public mutating func commandDone(
        _ id: Int, _ command: RemoteCommand, request: String?, before: RemoteCommand.Before = .init()
    ) -> [Output] {
        let by = connections[id]?.who ?? "a viewer"
        let who = who(id)
        counted.countCommand(command.name, "ok")
        var line = "{\"t\":"
        JSONLinesEncoder.appendTime(monitorTime, &line)
        line += ",\"event\":\"audit\",\"seq\":\(ring.head + 1),\"by\":\(jsonString(by)),\"cmd\":\"\(command.name)\""
        switch command {
        case .cancel(let op): line += ",\"op\":\(op)"
        case .setLimit(let limit): line += ",\"limit\":\(limit)"
        default: break
        }
        line += ",\"text\":\(jsonString(command.audit(by: who, before: before)))}\n"
        let seq = ring.append(ByteBuffer(string: line))
        guard connections[id] != nil else { return [] }
        return [
            .send(
                id,
                [ByteBuffer(string: "{\"event\":\"reply\"\(Self.requestField(request)),\"ok\":true,\"seq\":\(seq)}\n")])
        ]
    }
}
