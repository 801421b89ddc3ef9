import OpsMonitor

extension PublisherMessage {
    /// Reads one publisher line (a trailing newline allowed): the message it holds, nil for a
    /// stream event, a snapshot line or an event this build does not know. Throws for a line
    /// that is not JSON, or a message with a field missing, of the wrong type or out of range.
    package static func decode(
        bytes: some Collection<UInt8>, decoder: JSONLinesDecoder = .init()
    ) throws(EventLineError) -> PublisherMessage? {
        try decode(try decoder.decode(bytes: bytes))
    }

    /// The message a line `JSONLinesDecoder` read holds (nil: not a session message).
    package static func decode(_ line: DecodedLine) throws(EventLineError) -> PublisherMessage? {
        guard case .other(let event) = line.line else { return nil }
        let fields = EventFields(object: line.members, event: event)
        switch event {
        case "welcome":
            return .welcome(
                Welcome(
                    protocolVersion: try fields.int("protocol"), app: try fields.string("app"),
                    queue: try fields.string("queue"), pid: try fields.int("pid"),
                    role: try fields.enumValue("role", RemoteRole.self), epoch: try fields.string("epoch"),
                    seq: try fields.uint64("seq"), resumed: try fields.bool("resumed"),
                    heartbeat: fields.has("heartbeat") ? try fields.double("heartbeat") : nil,
                    maximumLine: try fields.optionalInt("max_line"), sharedStream: try fields.optionalString("shm")))
        case "reply":
            return try decodeReply(fields)
        case "error":
            return try decodeError(fields)
        case "pong":
            return .pong(request: try requestID(fields), seq: try fields.uint64("seq"))
        case "resync":
            return .resync(reason: try fields.string("reason"), seq: try fields.uint64("seq"))
        case "heartbeat":
            return .heartbeat(time: try fields.optionalTime("t"), seq: try fields.uint64("seq"))
        case "shm":
            return .sharedStream(
                position: try fields.uint64("position"), seq: try fields.uint64("seq"),
                snapshot: fields.has("snapshot") ? try fields.bool("snapshot") : false)
        case "skipped":
            let from = try fields.uint64("from")
            let to = try fields.uint64("to")
            guard from <= to else { throw fields.error("to", "is below \"from\"") }
            return .skipped(from: from, to: to)
        case "audit":
            return .audit(
                Audit(
                    time: try fields.time("t"), seq: try fields.uint64("seq"), by: try fields.string("by"),
                    command: try fields.string("cmd"), operation: try fields.optionalInt("op"),
                    limit: try fields.optionalInt("limit"), count: try fields.optionalInt("count"),
                    text: try fields.string("text")))
        case "status":
            return .status(try Status(fields, request: try requestID(fields)))
        case "bye":
            return .bye(reason: try fields.string("reason"))
        default:
            return nil
        }
    }

    /// A `reply`: a refusal (`"ok":false`, which names its request) or a success.
    private static func decodeReply(_ fields: EventFields) throws(EventLineError) -> PublisherMessage {
        let request = try requestID(fields)
        guard try fields.bool("ok") else {
            guard let request else { throw fields.error("id", "is missing from a refusal") }
            return .refused(
                request: request, code: try fields.enumValue("error", RemoteErrorCode.self),
                message: try fields.string("message"))
        }
        return .reply(request: request, seq: try fields.uint64("seq"))
    }

    /// An `error`, with the protocol versions `supported` when it gives them.
    private static func decodeError(_ fields: EventFields) throws(EventLineError) -> PublisherMessage {
        var supported: ClosedRange<Int>?
        if fields.has("supported") {
            guard let object = fields.object["supported"]?.objectValue else {
                throw fields.error("supported", "must be an object")
            }
            let range = EventFields(object: object, event: "error supported")
            let low = try range.int("min")
            let high = try range.int("max")
            guard low <= high else { throw fields.error("supported", "has min above max") }
            supported = low...high
        }
        return .error(
            code: try fields.enumValue("code", RemoteErrorCode.self), message: try fields.string("message"),
            supported: supported)
    }

    /// The `id` a reply or pong echoes: absent, a string or an integer.
    private static func requestID(_ fields: EventFields) throws(EventLineError) -> RequestID? {
        guard fields.has("id") else { return nil }
        guard let request = RequestID(fields.object["id"]) else {
            throw fields.error("id", "must be a string or an integer")
        }
        return request
    }
}
