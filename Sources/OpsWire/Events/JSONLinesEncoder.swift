import OpsKit
import OpsMonitor

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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        encode(event, into: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of the line(s) for `event` to `bytes`, each ending in "\n";
    /// throttled progress events append nothing. The same bytes as the String form, without
    /// building a String.
    public mutating func encode(_ event: MonitorEvent, into bytes: inout [UInt8]) {
        switch event {
        case .added(let time, let id, let name, let kind, let unit, let total, let dependencies):
            names[id] = name
            Self.appendStart(time, #","event":"added","id":"#, &bytes)
            JSONBytes.append(id, to: &bytes)
            JSONBytes.append(#","op":"#, to: &bytes)
            JSONBytes.appendString(name, to: &bytes)
            JSONBytes.append(#","kind":""#, to: &bytes)
            JSONBytes.append(raw: kind.rawValue, to: &bytes)
            JSONBytes.append(#"","unit":""#, to: &bytes)
            JSONBytes.append(raw: unit.rawValue, to: &bytes)
            JSONBytes.append(#"","total":"#, to: &bytes)
            JSONBytes.append(total, to: &bytes)
            Self.appendAfter(dependencies, &bytes)
        case .linked(let time, let id, let dependencies):
            Self.appendStart(time, #","event":"linked","id":"#, &bytes)
            JSONBytes.append(id, to: &bytes)
            JSONBytes.append(#","op":"#, to: &bytes)
            appendName(names[id], id, &bytes)
            Self.appendAfter(dependencies, &bytes)
        case .state(let time, let id, let from, let to, let outcome, let message):
            encodeState(time, id, from, to, outcome, message, into: &bytes)
        case .progress:
            encodeProgress(event, into: &bytes)
        case .queue(let time, let suspended, let limit, let counts, let reason):
            Self.appendStart(time, #","event":"queue","suspended":"#, &bytes)
            JSONBytes.append(suspended, to: &bytes)
            JSONBytes.append(#","limit":"#, to: &bytes)
            JSONBytes.append(limit, to: &bytes)
            bytes.append(0x2C)
            Self.appendCounts(counts, &bytes)
            JSONBytes.append(#","reason":"#, to: &bytes)
            JSONBytes.appendString(reason, to: &bytes)
            JSONBytes.append("}\n", to: &bytes)
        }
    }

    /// A state line; at a finish, first the progress value held back for it (at the finish's
    /// time), and the operation's throttling entries go.
    private mutating func encodeState(
        _ time: Duration, _ id: Int, _ from: Lifecycle?, _ to: Lifecycle, _ outcome: Outcome?, _ message: String?,
        into bytes: inout [UInt8]
    ) {
        // (The throttling tables are checked for emptiness first: without progress lines,
        // as in a publisher's stream of quick operations, they cost no hashing.)
        if to == .finished, !heldProgress.isEmpty, let held = heldProgress.removeValue(forKey: id) {
            lastProgress[id] = nil
            // Written at the finish's time: lines of other operations may have been written
            // since the held value came, and `t` never goes back.
            if case .progress(_, let id, let completed, let total, let rate, let retries, let next, let error) =
                held
            {
                let stamped = MonitorEvent.progress(
                    time: time, id: id, completedBytes: completed, totalBytes: total, bytesPerSecond: rate,
                    retries: retries, nextAttemptAt: next, retryError: error)
                encode(stamped, into: &bytes)
            }
        }
        // A finished operation's name is written for the last time.
        let name = to == .finished ? names.removeValue(forKey: id) : names[id]
        Self.appendStart(time, #","event":"state","id":"#, &bytes)
        JSONBytes.append(id, to: &bytes)
        JSONBytes.append(#","op":"#, to: &bytes)
        appendName(name, id, &bytes)
        if let from {
            JSONBytes.append(#","from":""#, to: &bytes)
            JSONBytes.append(raw: from.rawValue, to: &bytes)
            JSONBytes.append(#"","to":""#, to: &bytes)
        } else {
            JSONBytes.append(#","from":null,"to":""#, to: &bytes)
        }
        JSONBytes.append(raw: to.rawValue, to: &bytes)
        bytes.append(0x22)
        if let outcome {
            JSONBytes.append(#","outcome":""#, to: &bytes)
            JSONBytes.append(raw: outcome.rawValue, to: &bytes)
            bytes.append(0x22)
        }
        if let message {
            JSONBytes.append(#","message":"#, to: &bytes)
            JSONBytes.appendString(message, to: &bytes)
        }
        JSONBytes.append("}\n", to: &bytes)
        if to == .finished {
            if !lastProgress.isEmpty { lastProgress[id] = nil }
            if !heldProgress.isEmpty { heldProgress[id] = nil }
        }
    }

    /// A progress line, unless throttled (then held back, the newest value per operation).
    private mutating func encodeProgress(_ event: MonitorEvent, into bytes: inout [UInt8]) {
        guard
            case .progress(let time, let id, let completed, let total, let rate, let retries, let next, let error) =
                event
        else { return }
        // A retry, and the end of its back-off, are always written.
        if let last = lastProgress[id], completed < total, last.retries == retries,
            last.waiting == (next != nil), time - last.time < progressInterval
        {
            heldProgress[id] = event
            return
        }
        if !heldProgress.isEmpty { heldProgress[id] = nil }
        lastProgress[id] = (time, retries, next != nil)
        Self.appendStart(time, #","event":"progress","id":"#, &bytes)
        JSONBytes.append(id, to: &bytes)
        JSONBytes.append(#","op":"#, to: &bytes)
        appendName(names[id], id, &bytes)
        JSONBytes.append(#","bytes":"#, to: &bytes)
        JSONBytes.append(completed, to: &bytes)
        JSONBytes.append(#","total":"#, to: &bytes)
        JSONBytes.append(total, to: &bytes)
        JSONBytes.append(#","rate":"#, to: &bytes)
        JSONBytes.append(Int64(clampingRounded: rate), to: &bytes)
        JSONBytes.append(#","retries":"#, to: &bytes)
        JSONBytes.append(retries, to: &bytes)
        if let error {
            JSONBytes.append(#","error":"#, to: &bytes)
            JSONBytes.appendString(error, to: &bytes)
        }
        if let next {
            JSONBytes.append(#","next":"#, to: &bytes)
            JSONBytes.appendTime(next, to: &bytes)
        }
        JSONBytes.append("}\n", to: &bytes)
    }

    /// The final summary line.
    public static func summary(
        _ snapshot: QueueSnapshot, duration: Duration, interrupted: Bool
    ) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        appendStart(snapshot.time, #","event":"summary","operations":"#, &bytes)
        JSONBytes.append(snapshot.counts.total, to: &bytes)
        bytes.append(0x2C)
        appendCounts(snapshot.counts, &bytes)
        JSONBytes.append(#","bytes":"#, to: &bytes)
        JSONBytes.append(snapshot.completedBytes, to: &bytes)
        JSONBytes.append(#","total":"#, to: &bytes)
        JSONBytes.append(snapshot.totalBytes, to: &bytes)
        JSONBytes.append(#","duration":"#, to: &bytes)
        JSONBytes.appendTime(duration, to: &bytes)
        JSONBytes.append(#","interrupted":"#, to: &bytes)
        JSONBytes.append(interrupted, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Pieces

    /// How every line starts: `{"t":12.345` and then `rest` (`,"event":"…"` and the next key).
    static func appendStart(_ time: Duration, _ rest: StaticString, _ bytes: inout [UInt8]) {
        JSONBytes.append(#"{"t":"#, to: &bytes)
        JSONBytes.appendTime(time, to: &bytes)
        JSONBytes.append(rest, to: &bytes)
    }

    /// `,"after":[…]}` and the newline: the end of an `added` or `linked` line.
    private static func appendAfter(_ dependencies: [Int], _ bytes: inout [UInt8]) {
        JSONBytes.append(#","after":"#, to: &bytes)
        JSONBytes.append(dependencies, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
    }

    /// The operation's name as a JSON string, or `"#id"` for one this encoder never saw added.
    private func appendName(_ name: String?, _ id: Int, _ bytes: inout [UInt8]) {
        if let name {
            JSONBytes.appendString(name, to: &bytes)
        } else {
            JSONBytes.append("\"#", to: &bytes)
            JSONBytes.append(id, to: &bytes)
            bytes.append(0x22)
        }
    }

    package static func appendCounts(_ counts: StateCounts, _ bytes: inout [UInt8]) {
        let fields: KeyValuePairs<StaticString, Int> = [
            #""waiting":"#: counts.waiting, #","ready":"#: counts.ready, #","executing":"#: counts.executing,
            #","succeeded":"#: counts.succeeded, #","failed":"#: counts.failed, #","cancelled":"#: counts.cancelled,
        ]
        for (key, value) in fields {
            JSONBytes.append(key, to: &bytes)
            JSONBytes.append(value, to: &bytes)
        }
    }

    static func appendCounts(_ counts: StateCounts, _ output: inout String) {
        appending(to: &output) { appendCounts(counts, &$0) }
    }

    /// Appends seconds with millisecond precision, e.g. `12.345`.
    public static func appendTime(_ time: Duration, _ output: inout String) {
        appending(to: &output) { JSONBytes.appendTime(time, to: &$0) }
    }

    /// A JSON string literal with the required escapes; DEL, C1 and bidi controls are also
    /// written as `\uXXXX` (same value once decoded), so a name cannot drive a terminal.
    public static func appendString(_ text: String, _ output: inout String) {
        // Plain printable ASCII (most names) needs no escape: appended whole.
        if JSONBytes.isPlain(text.utf8) {
            output += "\""
            output += text
            output += "\""
            return
        }
        appending(to: &output) { JSONBytes.appendString(text, to: &$0) }
    }

    /// Appends what `write` appends to a byte array, as text.
    private static func appending(to output: inout String, _ write: (inout [UInt8]) -> Void) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        write(&bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }
}
