extension ViewerMessage {
    /// The message's line, newline included: the exact bytes a viewer sends.
    package var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        JSONBytes.append(#"{"cmd":"#, to: &bytes)
        JSONBytes.appendString(name, to: &bytes)
        request?.appendField(to: &bytes)
        switch self {
        case .hello(let hello):
            hello.appendFields(to: &bytes)
        case .control(let command, _):
            switch command {
            case .cancel(let operation):
                JSONBytes.append(#","op":"#, to: &bytes)
                JSONBytes.append(operation, to: &bytes)
            case .cancelMany(let operations):
                JSONBytes.append(#","ops":"#, to: &bytes)
                JSONBytes.append(operations, to: &bytes)
            case .cancelAll:
                JSONBytes.append(#","confirm":true"#, to: &bytes)
            case .setLimit(let limit):
                JSONBytes.append(#","limit":"#, to: &bytes)
                JSONBytes.append(limit, to: &bytes)
            case .suspend, .resume:
                break
            }
        case .sharedStream(let snapshots, _):
            if snapshots { JSONBytes.append(#","snapshots":true"#, to: &bytes) }
        case .resync, .ping, .status:
            break
        }
        JSONBytes.append("}\n", to: &bytes)
        return bytes
    }

    /// The line as text, newline included.
    package var text: String { String(decoding: encoded, as: UTF8.self) }
}

extension ViewerMessage.Hello {
    fileprivate func appendFields(to bytes: inout [UInt8]) {
        JSONBytes.append(#","min":"#, to: &bytes)
        JSONBytes.append(minimum, to: &bytes)
        JSONBytes.append(#","max":"#, to: &bytes)
        JSONBytes.append(maximum, to: &bytes)
        if let client {
            JSONBytes.append(#","client":"#, to: &bytes)
            JSONBytes.appendString(client, to: &bytes)
        }
        if let role {
            JSONBytes.append(#","role":"#, to: &bytes)
            JSONBytes.appendString(role.rawValue, to: &bytes)
        }
        if let token {
            JSONBytes.append(#","token":"#, to: &bytes)
            JSONBytes.appendString(token, to: &bytes)
        }
        if let resume {
            JSONBytes.append(#","resume":{"epoch":"#, to: &bytes)
            JSONBytes.appendString(resume.epoch, to: &bytes)
            JSONBytes.append(#","seq":"#, to: &bytes)
            JSONBytes.append(resume.seq, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        if summary { JSONBytes.append(#","summary":true"#, to: &bytes) }
    }
}
