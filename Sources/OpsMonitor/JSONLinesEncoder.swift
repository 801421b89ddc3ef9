import OpsKit

/// Turns monitor events into JSON Lines (one object per line), as `opsdash --headless` writes
/// them. Keeps operation names by id and throttles progress lines per operation.
public struct JSONLinesEncoder: Sendable {
    /// Minimum simulated time between two progress lines of one operation.
    public var progressInterval: Duration
    private var names: [Int: String] = [:]
    private var lastProgress: [Int: (time: Duration, retries: Int, waiting: Bool)] = [:]
    /// The newest progress event held back by throttling, per operation; written before the
    /// operation's finish line so the stream's last bytes are exact.
    private var heldProgress: [Int: MonitorEvent] = [:]

    /// Creates an encoder writing at most one progress line per operation per `progressInterval`.
    public init(progressInterval: Duration = .milliseconds(250)) {
        self.progressInterval = progressInterval
    }

    /// Appends the line(s) for `event` to `output`, each ending in "\n"; throttled progress
    /// events append nothing.
    public mutating func encode(_ event: MonitorEvent, into output: inout String) {
        switch event {
        case .added(let time, let id, let name, let kind, let unit, let total, let dependencies):
            names[id] = name
            output += "{\"t\":"
            appendTime(time, &output)
            output += ",\"event\":\"added\",\"id\":"
            Self.appendInteger(id, &output)
            output += ",\"op\":"
            appendString(name, &output)
            output += ",\"kind\":\""
            output += kind.rawValue
            output += "\",\"unit\":\""
            output += unit.rawValue
            output += "\",\"total\":"
            Self.appendInteger(total, &output)
            output += ",\"after\":["
            for (index, dependency) in dependencies.enumerated() {
                if index > 0 { output += "," }
                Self.appendInteger(dependency, &output)
            }
            output += "]}\n"
        case .state(let time, let id, let from, let to, let outcome, let message):
            if to == .finished, let held = heldProgress.removeValue(forKey: id) {
                lastProgress[id] = nil
                encode(held, into: &output)
            }
            output += "{\"t\":"
            appendTime(time, &output)
            output += ",\"event\":\"state\",\"id\":"
            Self.appendInteger(id, &output)
            output += ",\"op\":"
            appendString(names[id] ?? "#\(id)", &output)
            output += ",\"from\":"
            if let from {
                output += "\""
                output += from.rawValue
                output += "\""
            } else {
                output += "null"
            }
            output += ",\"to\":\""
            output += to.rawValue
            output += "\""
            if let outcome {
                output += ",\"outcome\":\""
                output += outcome.rawValue
                output += "\""
            }
            if let message {
                output += ",\"message\":"
                appendString(message, &output)
            }
            output += "}\n"
            if to == .finished {
                lastProgress[id] = nil
                heldProgress[id] = nil
                names[id] = nil
            }
        case .progress(let time, let id, let completed, let total, let rate, let retries, let next):
            // A retry, and the end of its back-off, are always written.
            if let last = lastProgress[id], completed < total, last.retries == retries,
                last.waiting == (next != nil), time - last.time < progressInterval
            {
                heldProgress[id] = event
                return
            }
            heldProgress[id] = nil
            lastProgress[id] = (time, retries, next != nil)
            output += "{\"t\":"
            appendTime(time, &output)
            output += ",\"event\":\"progress\",\"id\":"
            Self.appendInteger(id, &output)
            output += ",\"op\":"
            appendString(names[id] ?? "#\(id)", &output)
            output += ",\"bytes\":"
            Self.appendInteger(completed, &output)
            output += ",\"total\":"
            Self.appendInteger(total, &output)
            output += ",\"rate\":"
            Self.appendInteger(Int64(rate.rounded()), &output)
            output += ",\"retries\":"
            Self.appendInteger(retries, &output)
            if let next {
                output += ",\"next\":"
                appendTime(next, &output)
            }
            output += "}\n"
        case .queue(let time, let suspended, let limit, let counts, let reason):
            output += "{\"t\":"
            appendTime(time, &output)
            output += ",\"event\":\"queue\",\"suspended\":\(suspended),\"limit\":\(limit),"
            appendCounts(counts, &output)
            output += ",\"reason\":"
            appendString(reason, &output)
            output += "}\n"
        }
    }

    /// The final summary line.
    public static func summary(
        _ snapshot: QueueSnapshot, duration: Duration, interrupted: Bool
    ) -> String {
        var output = "{\"t\":"
        appendTime(snapshot.time, &output)
        output += ",\"event\":\"summary\",\"operations\":\(snapshot.counts.total + 0),"
        appendCounts(snapshot.counts, &output)
        output += ",\"bytes\":\(snapshot.completedBytes),\"total\":\(snapshot.totalBytes),\"duration\":"
        appendTime(duration, &output)
        output += ",\"interrupted\":\(interrupted)}\n"
        return output
    }

    // MARK: Pieces

    static func appendCounts(_ counts: StateCounts, _ output: inout String) {
        output += "\"waiting\":\(counts.waiting),\"ready\":\(counts.ready),\"executing\":\(counts.executing),"
        output += "\"succeeded\":\(counts.succeeded),\"failed\":\(counts.failed),\"cancelled\":\(counts.cancelled)"
    }

    private func appendCounts(_ counts: StateCounts, _ output: inout String) {
        Self.appendCounts(counts, &output)
    }

    /// Appends seconds with millisecond precision, e.g. `12.345`.
    public static func appendTime(_ time: Duration, _ output: inout String) {
        let millis = max(0, Int64((time.seconds * 1000).rounded()))
        let fraction = millis % 1000
        appendInteger(millis / 1000, &output)
        output += "."
        if fraction < 100 { output += fraction < 10 ? "00" : "0" }
        appendInteger(fraction, &output)
    }

    /// Appends `value` in decimal (no interpolation buffer: the digits are a small string).
    public static func appendInteger(_ value: Int, _ output: inout String) {
        output += String(value)
    }

    /// Appends `value` in decimal.
    public static func appendInteger(_ value: Int64, _ output: inout String) {
        output += String(value)
    }

    /// Appends `value` in decimal.
    public static func appendInteger(_ value: UInt64, _ output: inout String) {
        output += String(value)
    }

    private func appendTime(_ time: Duration, _ output: inout String) {
        Self.appendTime(time, &output)
    }

    /// A JSON string literal with the required escapes; DEL, C1 and bidi controls are also
    /// written as `\uXXXX` (same value once decoded), so a name cannot drive a terminal.
    public static func appendString(_ text: String, _ output: inout String) {
        output += "\""
        // Plain printable ASCII (most names) needs no escape: appended whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where ControlCharacterEscaping.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    private func appendString(_ text: String, _ output: inout String) {
        Self.appendString(text, &output)
    }
}
