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

    /// Acts on a streaming connection's message (a hello is answered in `receive`).
    mutating func command(_ connection: inout Connection, _ id: Int, _ message: ViewerMessage) -> [Output] {
        let request = message.request
        switch message {
        case .hello:
            return refuse(&connection, id, .badArgument, "hello was already said", request: request)
        case .status:
            return [.status(id, request: request)]
        case .resync, .sharedStream, .control:
            // A summary-only connection gets no picture: nothing to resync, stream or steer.
            guard !connection.summaryOnly else {
                return refuse(
                    &connection, id, .badArgument, "\(message.name) needs a hello without \"summary\"",
                    request: request)
            }
        case .ping:
            break
        }
        switch message {
        case .hello, .status:
            return []
        case .resync:
            connection.wantsKeyframe = true
            connection.pending = []
            counted.resyncs["asked", default: 0] += 1
            return [.send(id, [resyncLine("asked")])]
        case .ping:
            return [.send(id, [PublisherMessage.pong(request: request, seq: ring.head).buffer])]
        case .sharedStream(let snapshots, _):
            guard case .local = connection.peer, ring.mirror != nil else {
                return refuse(
                    &connection, id, .badArgument, "no shared-memory stream for this connection", request: request)
            }
            if connection.shared == .off { connection.shared = .asked }
            connection.sharedSnapshots = snapshots
            return []
        case .control(let command, _):
            return control(&connection, id, command, request: request)
        }
    }

    /// Checks a `control` command: only a controller may steer, and a cancel must name unfinished
    /// operations (a `cancel_many` keeps those, each once). What passes goes to the app to carry
    /// out.
    private mutating func control(
        _ connection: inout Connection, _ id: Int, _ parsed: RemoteCommand, request: RequestID?
    ) -> [Output] {
        let cmd = parsed.name
        guard connection.role == .controller else {
            return refuse(
                &connection, id, .forbidden, command: cmd, "read-only viewer: \(cmd) needs the controller role",
                request: request)
        }
        switch parsed {
        case .cancel(let operation) where !unfinished.contains(operation):
            return refuse(
                &connection, id, .notFound, command: cmd, "no unfinished operation #\(operation)", request: request)
        case .cancelMany(let operations):
            // Each unfinished one once, in the order given; the others are gone already.
            var seen = Set<Int>()
            let cancellable = operations.filter { unfinished.contains($0) && seen.insert($0).inserted }
            guard !cancellable.isEmpty else {
                return refuse(
                    &connection, id, .notFound, command: cmd,
                    "no unfinished operation among the \(operations.count) given", request: request)
            }
            return [.execute(id, .cancelMany(operationIDs: cancellable), request: request)]
        default:
            return [.execute(id, parsed, request: request)]
        }
    }

    /// Who connection `id` is, for audit lines and the app's log: "uid 1000 (alice)" (the user
    /// name when the system knows it), "tcp 127.0.0.1:5000 (control token)".
    @_spi(OpsDashInternals) public func who(_ id: Int) -> String {
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
    @_spi(OpsDashInternals) public mutating func commandDone(
        _ id: Int, _ command: RemoteCommand, request: RequestID?, before: RemoteCommand.Before = .init()
    ) -> [Output] {
        let by = connections[id]?.who ?? "a viewer"
        counted.countCommand(command.name, "ok")
        var audit = PublisherMessage.Audit(
            time: monitorTime, seq: ring.head + 1, by: by, command: command.name,
            text: command.audit(by: who(id), before: before))
        switch command {
        case .cancel(let operation): audit.operation = operation
        case .cancelMany(let operations): audit.count = operations.count
        case .setLimit(let limit): audit.limit = limit
        case .cancelAll, .suspend, .resume: break
        }
        let seq = ring.append(PublisherMessage.audit(audit).buffer)
        guard connections[id] != nil else { return [] }
        return [.send(id, [PublisherMessage.reply(request: request, seq: seq).buffer])]
    }
}
