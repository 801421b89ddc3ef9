import OpsMonitor

extension PublisherMessage {
    /// The message's line, newline included: the exact bytes the publisher sends.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        append(to: &bytes)
        return bytes
    }

    /// Appends the message's line, newline included.
    package func append(to bytes: inout [UInt8]) {
        switch self {
        case .welcome(let welcome):
            welcome.append(to: &bytes)
        case .reply(let request, let seq):
            Self.appendReply(request: request, seq: seq, to: &bytes)
        case .refused(let request, let code, let message):
            Self.appendRefusal(request: request, code: code, message: message, to: &bytes)
        case .error(let code, let message, let supported):
            Self.appendError(code: code, message: message, supported: supported, to: &bytes)
        case .pong(let request, let seq):
            JSONBytes.append(#"{"event":"pong""#, to: &bytes)
            request?.appendField(to: &bytes)
            JSONBytes.appendSeq(seq, to: &bytes)
        case .resync(let reason, let seq):
            JSONBytes.append(#"{"event":"resync","reason":"#, to: &bytes)
            JSONBytes.appendString(reason, to: &bytes)
            JSONBytes.appendSeq(seq, to: &bytes)
        case .heartbeat(let time, let seq):
            if let time {
                JSONBytes.append(#"{"t":"#, to: &bytes)
                JSONBytes.appendTime(time, to: &bytes)
                JSONBytes.append(#","event":"heartbeat""#, to: &bytes)
            } else {
                JSONBytes.append(#"{"event":"heartbeat""#, to: &bytes)
            }
            JSONBytes.appendSeq(seq, to: &bytes)
        case .sharedStream(let position, let seq, let snapshot):
            Self.appendSharedStream(position: position, seq: seq, snapshot: snapshot, to: &bytes)
        case .skipped(let from, let to):
            JSONBytes.append(#"{"event":"skipped","from":"#, to: &bytes)
            JSONBytes.append(from, to: &bytes)
            JSONBytes.append(#","to":"#, to: &bytes)
            JSONBytes.append(to, to: &bytes)
            JSONBytes.append("}\n", to: &bytes)
        case .audit(let audit):
            audit.append(to: &bytes)
        case .status(let status):
            status.append(to: &bytes)
        case .bye(let reason):
            JSONBytes.append(#"{"event":"bye","reason":"#, to: &bytes)
            JSONBytes.appendString(reason, to: &bytes)
            JSONBytes.append("}\n", to: &bytes)
        }
    }

    /// `{"event":"reply","request":…,"ok":true,"seq":…}`.
    private static func appendReply(request: RequestID?, seq: UInt64, to bytes: inout [UInt8]) {
        JSONBytes.append(#"{"event":"reply""#, to: &bytes)
        request?.appendField(to: &bytes)
        JSONBytes.append(#","ok":true,"seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
    }

    /// `{"event":"reply","request":…,"ok":false,"error":…,"message":…}`.
    private static func appendRefusal(
        request: RequestID, code: RemoteErrorCode, message: String, to bytes: inout [UInt8]
    ) {
        JSONBytes.append(#"{"event":"reply""#, to: &bytes)
        request.appendField(to: &bytes)
        JSONBytes.append(#","ok":false,"error":"#, to: &bytes)
        JSONBytes.appendString(code.rawValue, to: &bytes)
        JSONBytes.append(#","message":"#, to: &bytes)
        JSONBytes.appendString(message, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
    }

    /// `{"event":"error","code":…,"message":…}`, with the versions `supported` when given.
    private static func appendError(
        code: RemoteErrorCode, message: String, supported: ClosedRange<Int>?, to bytes: inout [UInt8]
    ) {
        JSONBytes.append(#"{"event":"error","code":"#, to: &bytes)
        JSONBytes.appendString(code.rawValue, to: &bytes)
        JSONBytes.append(#","message":"#, to: &bytes)
        JSONBytes.appendString(message, to: &bytes)
        if let supported {
            JSONBytes.append(#","supported":{"min":"#, to: &bytes)
            JSONBytes.append(supported.lowerBound, to: &bytes)
            JSONBytes.append(#","max":"#, to: &bytes)
            JSONBytes.append(supported.upperBound, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        JSONBytes.append("}\n", to: &bytes)
    }

    /// `{"event":"shm","position":…,"seq":…}`, with `"snapshot":true` for the snapshot's place.
    private static func appendSharedStream(position: UInt64, seq: UInt64, snapshot: Bool, to bytes: inout [UInt8]) {
        JSONBytes.append(#"{"event":"shm","position":"#, to: &bytes)
        JSONBytes.append(position, to: &bytes)
        JSONBytes.append(#","seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        if snapshot { JSONBytes.append(#","snapshot":true"#, to: &bytes) }
        JSONBytes.append("}\n", to: &bytes)
    }

    /// Appends `event`'s delta line numbered `seq` (the encoder's line, then `seq`), and
    /// whether it wrote one: nothing for an event the encoder writes no single line for.
    package static func appendDelta(
        _ event: MonitorEvent, seq: UInt64, encoder: inout JSONLinesEncoder, to bytes: inout [UInt8]
    ) -> Bool {
        let start = bytes.count
        encoder.encode(event, into: &bytes)
        let end = bytes.count
        // The encoder writes whole lines ending in "}\n": the seq goes before the brace.
        guard end - start >= 2, bytes[end - 2] == UInt8(ascii: "}"), bytes[end - 1] == UInt8(ascii: "\n") else {
            bytes.removeSubrange(start...)
            return false
        }
        bytes.removeLast(2)
        JSONBytes.appendSeq(seq, to: &bytes)
        return true
    }
}

extension PublisherMessage.Welcome {
    func append(to bytes: inout [UInt8]) {
        JSONBytes.append(#"{"event":"welcome","protocol":"#, to: &bytes)
        JSONBytes.append(protocolVersion, to: &bytes)
        JSONBytes.append(#","app":"#, to: &bytes)
        JSONBytes.appendString(app, to: &bytes)
        JSONBytes.append(#","queue":"#, to: &bytes)
        JSONBytes.appendString(queue, to: &bytes)
        JSONBytes.append(#","pid":"#, to: &bytes)
        JSONBytes.append(pid, to: &bytes)
        JSONBytes.append(#","role":"#, to: &bytes)
        JSONBytes.appendString(role.rawValue, to: &bytes)
        JSONBytes.append(#","epoch":"#, to: &bytes)
        JSONBytes.appendString(epoch, to: &bytes)
        JSONBytes.append(#","seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        JSONBytes.append(#","resumed":"#, to: &bytes)
        JSONBytes.append(resumed, to: &bytes)
        if let heartbeat {
            JSONBytes.append(#","heartbeat":"#, to: &bytes)
            // As Swift prints a Double ("2.0"); a value JSON cannot hold is written as 0.
            JSONBytes.append(raw: heartbeat.isFinite ? "\(heartbeat)" : "0", to: &bytes)
        }
        if let maximumLine {
            JSONBytes.append(#","max_line":"#, to: &bytes)
            JSONBytes.append(maximumLine, to: &bytes)
        }
        if let sharedStream {
            JSONBytes.append(#","shm":"#, to: &bytes)
            JSONBytes.appendString(sharedStream, to: &bytes)
        }
        JSONBytes.append("}\n", to: &bytes)
    }
}

extension PublisherMessage.Audit {
    func append(to bytes: inout [UInt8]) {
        JSONBytes.append(#"{"t":"#, to: &bytes)
        JSONBytes.appendTime(time, to: &bytes)
        JSONBytes.append(#","event":"audit","seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        JSONBytes.append(#","by":"#, to: &bytes)
        JSONBytes.appendString(by, to: &bytes)
        JSONBytes.append(#","cmd":"#, to: &bytes)
        JSONBytes.appendString(command, to: &bytes)
        if let operation {
            JSONBytes.append(#","op":"#, to: &bytes)
            JSONBytes.append(operation, to: &bytes)
        }
        if let limit {
            JSONBytes.append(#","limit":"#, to: &bytes)
            JSONBytes.append(limit, to: &bytes)
        }
        if let count {
            JSONBytes.append(#","count":"#, to: &bytes)
            JSONBytes.append(count, to: &bytes)
        }
        JSONBytes.append(#","text":"#, to: &bytes)
        JSONBytes.appendString(text, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
    }
}
