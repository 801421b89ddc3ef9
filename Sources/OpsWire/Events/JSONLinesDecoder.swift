import OpsMonitor

/// Reads one JSON Lines event line (what `JSONLinesEncoder`, `KeyframeEncoder` and the
/// `opsdash/1` protocol write) back into an `EventLine`. Unknown fields are ignored and unknown
/// events come back as `.other`; malformed lines throw an `EventLineError` naming the problem.
public struct JSONLinesDecoder: Sendable {
    /// The longest line accepted, in bytes without the newline (64 KiB by default).
    public var maximumLineLength: Int

    public init(maximumLineLength: Int = 65_536) {
        self.maximumLineLength = max(1, maximumLineLength)
    }

    /// Decodes one line (a trailing "\n" or "\r\n" is allowed).
    public func decode(_ line: some StringProtocol) throws(EventLineError) -> DecodedLine {
        try decode(bytes: line.utf8)
    }

    /// Decodes one line of UTF-8 bytes (a trailing "\n" or "\r\n" is allowed).
    public func decode(bytes: some Collection<UInt8>) throws(EventLineError) -> DecodedLine {
        let length = bytes.count
        if length > maximumLineLength + 2 {
            throw EventLineError(.lineTooLong, "line is \(length) bytes, limit \(maximumLineLength)")
        }
        let parsed =
            bytes.withContiguousStorageIfAvailable { buffer in parseObject(buffer) }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in parseObject(buffer) }
        let object = FieldList(try parsed.get())
        guard let event = object["event"]?.stringValue else {
            throw EventLineError(.badLine, "line has no \"event\" string")
        }
        let fields = EventFields(object: object, event: event)
        return DecodedLine(line: try Self.line(event, fields), seq: try fields.optionalUInt64("seq"), members: object)
    }

    /// The line in `buffer`, its newline dropped, parsed as a JSON object.
    private func parseObject(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<
        [JSONLineParser.JSONMember], EventLineError
    > {
        var line = buffer
        if line.last == UInt8(ascii: "\n") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.count > maximumLineLength {
            return .failure(EventLineError(.lineTooLong, "line is \(line.count) bytes, limit \(maximumLineLength)"))
        }
        do {
            guard let object = try JSONLineParser.parseMembers(buffer: line) else {
                return .failure(EventLineError(.badLine, "line is not a JSON object"))
            }
            return .success(object)
        } catch {
            return .failure(error)
        }
    }

    private static func line(_ event: String, _ fields: EventFields) throws(EventLineError) -> EventLine {
        switch event {
        case "added":
            return .event(
                .added(
                    time: try fields.time("t"), id: try fields.int("id"), name: try fields.string("op"),
                    kind: try fields.enumValue("kind", OperationKind.self),
                    unit: try fields.optionalEnum("unit", ProgressUnit.self) ?? .bytes,
                    totalBytes: try fields.int64("total"),
                    dependencies: fields.has("after") ? try fields.ints("after") : []))
        case "linked":
            return .event(
                .linked(time: try fields.time("t"), id: try fields.int("id"), dependencies: try fields.ints("after")))
        case "state":
            return .event(
                .state(
                    time: try fields.time("t"), id: try fields.int("id"),
                    from: try fields.optionalEnum("from", Lifecycle.self),
                    to: try fields.enumValue("to", Lifecycle.self),
                    outcome: try fields.optionalEnum("outcome", Outcome.self),
                    message: try fields.optionalString("message")))
        case "progress":
            return .event(
                .progress(
                    time: try fields.time("t"), id: try fields.int("id"), completedBytes: try fields.int64("bytes"),
                    totalBytes: try fields.int64("total"), bytesPerSecond: try fields.double("rate"),
                    retries: try fields.optionalInt("retries") ?? 0, nextAttemptAt: try fields.optionalTime("next"),
                    retryError: try fields.optionalString("error")))
        case "queue":
            return .event(
                .queue(
                    time: try fields.time("t"), isSuspended: try fields.bool("suspended"),
                    maxConcurrentOperationCount: try fields.int("limit"), counts: try fields.counts(),
                    reason: try fields.optionalString("reason") ?? ""))
        case "summary":
            return .summary(
                RunSummary(
                    time: try fields.time("t"), operations: try fields.int("operations"), counts: try fields.counts(),
                    completedBytes: try fields.int64("bytes"), totalBytes: try fields.int64("total"),
                    duration: try fields.time("duration"), interrupted: try fields.bool("interrupted")))
        case "snapshot_begin":
            return .keyframeBegin(try keyframeHeader(fields))
        case "snapshot_op":
            return .keyframeOperation(try operation(fields))
        case "snapshot_log":
            return .keyframeLog(try logEntry(fields))
        case "snapshot_end":
            return .keyframeEnd(seq: try fields.uint64("seq"))
        default:
            return .other(event: event)
        }
    }

    /// A `snapshot_begin` line's header: the queue's totals and settings, its per-second history.
    private static func keyframeHeader(_ fields: EventFields) throws(EventLineError) -> KeyframeHeader {
        var header =
            KeyframeHeader(
                time: try fields.time("t"), seq: try fields.uint64("seq"),
                isSuspended: try fields.bool("suspended"),
                maxConcurrentOperationCount: try fields.int("limit"), counts: try fields.counts(),
                completedBytes: try fields.int64("bytes"), totalBytes: try fields.int64("total"),
                bytesPerSecond: try fields.double("rate"), evictedCount: try fields.optionalInt("evicted") ?? 0,
                operationCount: try fields.int("operations"), logCount: try fields.optionalInt("log") ?? 0,
                version: try fields.optionalUInt64("version") ?? 0)
        header.history = try history(fields, time: header.time)
        return header
    }

    private static func operation(_ fields: EventFields) throws(EventLineError) -> OperationSnapshot {
        let id = try fields.int("id")
        var history: [StateChange] = []
        if fields.has("history") {
            guard let items = fields.object["history"]?.arrayValue else {
                throw fields.error("history", "must be an array")
            }
            for item in items {
                guard let object = item.objectValue else { throw fields.error("history", "must hold objects") }
                let change = EventFields(object: object, event: "snapshot_op history")
                history.append(
                    StateChange(
                        time: try change.time("t"), lifecycle: try change.enumValue("state", Lifecycle.self),
                        outcome: try change.optionalEnum("outcome", Outcome.self)))
            }
        }
        var op = OperationSnapshot(
            id: id, name: "", kind: try fields.optionalEnum("kind", OperationKind.self) ?? .other,
            unit: try fields.optionalEnum("unit", ProgressUnit.self) ?? .bytes,
            lifecycle: try fields.enumValue("state", Lifecycle.self),
            outcome: try fields.optionalEnum("outcome", Outcome.self), message: try fields.optionalString("message"),
            completedUnits: try fields.int64("bytes"), totalUnits: try fields.int64("total"),
            unitsPerSecond: try fields.double("rate"), retries: try fields.optionalInt("retries") ?? 0,
            nextAttemptAt: try fields.optionalTime("next"),
            dependencies: fields.has("after") ? try fields.ints("after") : [],
            addedAt: try fields.time("added"), startedAt: try fields.optionalTime("started"),
            finishedAt: try fields.optionalTime("finished"), history: history,
            retryLog: fields.has("retry_log") ? try fields.strings("retry_log") : [])
        op.explicitName = OperationSnapshot.explicitName(try fields.optionalString("op"), id: id)
        return op
    }

    private static func logEntry(_ fields: EventFields) throws(EventLineError) -> LogEntry {
        let time = try fields.time("t")
        let kind = try fields.enumValue("kind", LogEntry.Kind.self)
        let id = try fields.optionalInt("id")
        if kind == .state, fields.has("to") {
            guard let id else { throw fields.error("id", "is missing") }
            return LogEntry(
                time: time, operationID: id,
                name: OperationSnapshot.explicitName(try fields.optionalString("op"), id: id),
                from: try fields.enumValue("from", Lifecycle.self), to: try fields.enumValue("to", Lifecycle.self),
                outcome: try fields.optionalEnum("outcome", Outcome.self), message: try fields.optionalString("message")
            )
        }
        return LogEntry(time: time, kind: kind, operationID: id, text: try fields.string("text"))
    }

    /// A keyframe's `history` field: every series an array of the same length, at most the
    /// window (2 … `QueueHistory.maximumWindow`), of integers from 0; counts beyond 32 bits
    /// saturate. Its newest second is no later than the keyframe's time. Nil when absent (a
    /// writer that sends none).
    private static func history(_ fields: EventFields, time: Duration) throws(EventLineError) -> QueueHistory? {
        guard fields.has("history") else { return nil }
        guard let object = fields.object["history"]?.objectValue else {
            throw fields.error("history", "must be an object")
        }
        let history = EventFields(object: object, event: "snapshot_begin history")
        let window = try history.int("window")
        guard (2...QueueHistory.maximumWindow).contains(window) else {
            throw history.error("window", "must be 2 to \(QueueHistory.maximumWindow) seconds")
        }
        let newest = try history.int64("newest")
        guard newest >= 0 else { throw history.error("newest", "must not be negative") }
        var series: [[Int64]] = []
        for kind in KeyframeEncoder.historySeries {
            guard let items = object[kind.rawValue]?.arrayValue else {
                throw history.error(kind.rawValue, "must be an array of integers")
            }
            guard items.count <= window, items.count == series.first?.count ?? items.count else {
                throw history.error(kind.rawValue, "must hold as many seconds as the others, at most the window")
            }
            var values: [Int64] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.intValue, value >= 0 else {
                    throw history.error(kind.rawValue, "must be an array of integers from 0")
                }
                values.append(value)
            }
            series.append(values)
        }
        func count(_ index: Int, _ second: Int) -> UInt32 { UInt32(clamping: series[index][second]) }
        let seconds = (0..<(series.first?.count ?? 0)).map { second in
            QueueHistory.Second(
                bytes: series[3][second], succeeded: count(0, second), failed: count(1, second),
                cancelled: count(2, second), running: count(4, second), waiting: count(5, second))
        }
        guard !seconds.isEmpty else { return QueueHistory(window: window) }
        return QueueHistory(window: window, seconds: seconds, newest: min(newest, QueueHistory.second(of: time)))
    }
}
