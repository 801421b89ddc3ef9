import NIOCore
import OpsKit
import OpsMonitor
import OpsWire

extension PublisherCore {
    // MARK: Connections

    /// A new connection (a local one already passed the peer check).
    @_spi(OpsDashInternals) public mutating func connect(_ id: Int, peer: Peer, now: Duration) {
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
    @_spi(OpsDashInternals) public mutating func disconnect(_ id: Int) {
        connections[id] = nil
    }

    /// Whether the connection's socket can take more bytes now.
    @_spi(OpsDashInternals) public mutating func setWritable(_ id: Int, _ writable: Bool) {
        connections[id]?.writable = writable
    }

    /// A line longer than the limit arrived: framing is lost, so the connection closes.
    @_spi(OpsDashInternals) public mutating func lineTooLong(_ id: Int) -> [Output] {
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
    @_spi(OpsDashInternals) public mutating func receive(_ id: Int, line: some Collection<UInt8>, now: Duration)
        -> [Output]
    {
        guard var connection = connections[id] else { return [] }
        if case .closed = connection.phase { return [] }
        defer { connections[id] = connection }
        // Rate limit: a token per line, refilled continuously.
        connection.tokens = min(
            configuration.lineBurst,
            connection.tokens + (now - connection.lastRefill).seconds * configuration.linesPerSecond)
        connection.lastRefill = now
        let message: ViewerMessage?
        let failure: ViewerMessageError?
        do {
            message = try ViewerMessage.decode(line)
            failure = nil
        } catch {
            // A line that is no JSON object is refused before it counts against the rate limit.
            if error.isUnreadable { return refuse(&connection, id, error.code, error.message, request: nil) }
            message = nil
            failure = error
        }
        let request = message?.request ?? failure?.request
        guard connection.tokens >= 1 else {
            return refuse(
                &connection, id, .rateLimited, "more than \(Int(configuration.linesPerSecond)) lines per second",
                request: request)
        }
        connection.tokens -= 1
        let cmd = message?.name ?? failure?.command
        if case .hello = connection.phase, cmd != nil, cmd != "hello" {
            connection.phase = .closed
            return [
                .send(id, [Self.errorLine(.badLine, "the first line must be a hello", request: request)]),
                .close(id),
            ]
        }
        if case .streaming = connection.phase, cmd == "hello" {
            return refuse(&connection, id, .badArgument, "hello was already said", request: request)
        }
        if let failure {
            return refuse(
                &connection, id, failure.code, command: failure.countedCommand, failure.message, request: request)
        }
        guard let message else { return [] }
        if case .hello(let hello) = message { return self.hello(&connection, id, hello, now: now) }
        return command(&connection, id, message)
    }

    /// Refuses a line (`command`: counted as that command refused with `code`).
    mutating func refuse(
        _ connection: inout Connection, _ id: Int, _ code: RemoteErrorCode, command: String? = nil, _ message: String,
        request: RequestID?
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

    mutating func hello(
        _ connection: inout Connection, _ id: Int, _ hello: ViewerMessage.Hello, now: Duration
    ) -> [Output] {
        let request = hello.request
        let supported = RemoteProtocol.versions
        let version = min(hello.maximum, Int64(supported.upperBound))
        guard version >= max(hello.minimum, Int64(supported.lowerBound)) else {
            connection.phase = .closed
            let refusal = PublisherMessage.error(
                code: .unsupportedProtocol,
                message: "this publisher speaks opsdash/\(supported.lowerBound)…\(supported.upperBound)",
                supported: supported)
            return [.send(id, [refusal.buffer]), .close(id)]
        }
        var mayControl = access.allowControl
        if case .network = connection.peer {
            let token = hello.token ?? ""
            if let tokenMayControl = tokenMayControl(token) {
                mayControl = tokenMayControl
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
        connection.role = mayControl && hello.role != .observer ? .controller : .observer
        connection.phase = .streaming
        connection.summaryOnly = hello.summary
        // A summary connection gets no picture and no deltas: only `status` answers.
        let resumed = hello.summary ? false : startStream(&connection, resume: hello.resume)
        var sharedStream: String?
        if case .local = connection.peer, !hello.summary { sharedStream = ring.mirror?.path }
        let welcome = PublisherMessage.Welcome(
            protocolVersion: Int(version), app: identity.app, queue: identity.queue, pid: identity.pid,
            role: connection.role, epoch: identity.epoch, seq: ring.head, resumed: resumed,
            heartbeat: configuration.heartbeat.seconds, maximumLine: RemoteProtocol.maximumLineLength,
            sharedStream: sharedStream)
        connection.lastSent = now
        return [.send(id, [PublisherMessage.welcome(welcome).buffer])]
    }

    /// Whether a network peer with `token` may steer (the control token, when the app allows
    /// control) or only watch (the read token); nil for any other token. Compared in constant time.
    private func tokenMayControl(_ token: String) -> Bool? {
        if let control = access.controlToken, access.allowControl, Self.constantTimeEqual(token, control) {
            return true
        }
        if let read = access.readToken, Self.constantTimeEqual(token, read) { return false }
        return nil
    }

    /// Starts `connection`'s stream right after the `seq` it offers to resume from (same epoch,
    /// still in the ring, no burst going on), or else with a keyframe (told why during a burst).
    /// True when it resumed.
    private mutating func startStream(_ connection: inout Connection, resume: ViewerMessage.Hello.Resume?) -> Bool {
        if !isInBurst, let resume, resume.epoch == identity.epoch, resume.seq <= ring.head,
            resume.seq + 1 >= ring.first
        {
            connection.cursor = resume.seq + 1
            return true
        }
        connection.wantsKeyframe = true
        if isInBurst {
            connection.notice = resyncLine(Self.burstReason)
            counted.resyncs[Self.burstReason, default: 0] += 1
        }
        return false
    }
}
