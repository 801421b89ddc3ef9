extension ViewerMessage {
    /// Reads one viewer line (without its newline), every value hostile until checked: a line
    /// that is no JSON object, has no `cmd` string, names an unknown command or gives a
    /// command's field missing, of the wrong type or out of range throws the refusal it gets.
    /// Unknown fields are ignored; so is an `id` that is neither a string nor an integer.
    package static func decode(_ line: some Collection<UInt8>) throws(ViewerMessageError) -> ViewerMessage {
        let parsed: JSONValue
        do {
            parsed = try JSONLineParser.parse(line)
        } catch {
            throw ViewerMessageError(.badLine, error.message, isUnreadable: true)
        }
        guard case .object(let object) = parsed else {
            throw ViewerMessageError(.badLine, "line is not a JSON object", isUnreadable: true)
        }
        let request = RequestID(object["id"])
        guard let cmd = object["cmd"]?.stringValue else {
            throw ViewerMessageError(.badLine, "line has no \"cmd\" string", request: request)
        }
        func badArgument(_ message: String) -> ViewerMessageError {
            ViewerMessageError(.badArgument, message, request: request, command: cmd)
        }
        switch cmd {
        case "hello":
            return .hello(try hello(object, request: request, badArgument: badArgument))
        case "resync":
            return .resync(request: request)
        case "ping":
            return .ping(request: request)
        case "status":
            return .status(request: request)
        case "shm":
            return .sharedStream(snapshots: object["snapshots"]?.boolValue == true, request: request)
        default:
            if let command = try control(cmd, object, badArgument: badArgument) {
                return .control(command, request: request)
            }
            throw ViewerMessageError(.unknownCommand, "unknown command \"\(cmd)\"", request: request, command: cmd)
        }
    }

    /// A `hello`'s fields: both version bounds required (a hello without them is malformed, not
    /// "version 1"); a resume only when whole.
    private static func hello(
        _ object: [String: JSONValue], request: RequestID?, badArgument: (String) -> ViewerMessageError
    ) throws(ViewerMessageError) -> Hello {
        guard let minimum = object["min"]?.intValue, let maximum = object["max"]?.intValue else {
            throw badArgument("hello needs integer \"min\" and \"max\" protocol versions")
        }
        var resume: Hello.Resume?
        if let fields = object["resume"]?.objectValue, let epoch = fields["epoch"]?.stringValue,
            let seq = fields["seq"]?.intValue, seq >= 0
        {
            resume = Hello.Resume(epoch: epoch, seq: UInt64(seq))
        }
        return Hello(
            request: request, minimum: minimum, maximum: maximum, client: object["client"]?.stringValue,
            role: object["role"]?.stringValue.flatMap(RemoteRole.init(rawValue:)),
            token: object["token"]?.stringValue, resume: resume, summary: object["summary"]?.boolValue == true)
    }

    /// The control command `cmd` asks for, its fields checked; nil when `cmd` is no control
    /// command.
    private static func control(
        _ cmd: String, _ object: [String: JSONValue], badArgument: (String) -> ViewerMessageError
    ) throws(ViewerMessageError) -> RemoteCommand? {
        switch cmd {
        case "cancel":
            guard let operation = object["op"]?.intValue.flatMap({ Int(exactly: $0) }) else {
                throw badArgument("cancel needs \"op\": an operation id")
            }
            return .cancel(operationID: operation)
        case "cancel_many":
            guard let operations = operationIDs(object["ops"]) else {
                throw badArgument("cancel_many needs \"ops\": 1…\(RemoteProtocol.maximumCancelMany) operation ids")
            }
            return .cancelMany(operationIDs: operations)
        case "cancel_all":
            guard object["confirm"]?.boolValue == true else { throw badArgument("cancel_all needs \"confirm\": true") }
            return .cancelAll
        case "suspend":
            return .suspend
        case "resume":
            return .resume
        case "set_limit":
            let range = RemoteProtocol.limitRange
            guard let limit = object["limit"]?.intValue.flatMap({ Int(exactly: $0) }), range.contains(limit) else {
                throw badArgument("set_limit needs \"limit\": \(range.lowerBound)…\(range.upperBound)")
            }
            return .setLimit(limit)
        default:
            return nil
        }
    }

    /// `value` as 1…`maximumCancelMany` integer ids; nil for anything else.
    private static func operationIDs(_ value: JSONValue?) -> [Int]? {
        guard let items = value?.arrayValue, (1...RemoteProtocol.maximumCancelMany).contains(items.count) else {
            return nil
        }
        var operations: [Int] = []
        operations.reserveCapacity(items.count)
        for item in items {
            guard let operation = item.intValue.flatMap({ Int(exactly: $0) }) else { return nil }
            operations.append(operation)
        }
        return operations
    }
}
