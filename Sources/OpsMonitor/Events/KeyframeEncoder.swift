/// Writes a whole `QueueSnapshot` as JSON Lines (a keyframe): `snapshot_begin` with the
/// queue's settings, totals and the `seq` it is consistent with, one `snapshot_op` line per
/// operation, one `snapshot_log` line per log entry, then `snapshot_end`. `JSONLinesDecoder`
/// and `EventSnapshotBuilder` turn these lines back into the same snapshot; late-joining
/// viewers and recordings start from one.
public enum KeyframeEncoder {
    /// Appends the keyframe lines for `snapshot`, each ending in "\n".
    public static func encode(_ snapshot: QueueSnapshot, seq: UInt64, into output: inout String) {
        output += "{\"t\":"
        appendPreciseTime(snapshot.time, &output)
        output += ",\"event\":\"snapshot_begin\",\"seq\":\(seq),\"suspended\":\(snapshot.isSuspended),"
        output += "\"limit\":\(snapshot.maxConcurrentOperationCount),"
        JSONLinesEncoder.appendCounts(snapshot.counts, &output)
        output += ",\"bytes\":\(snapshot.completedBytes),\"total\":\(snapshot.totalBytes),\"rate\":"
        appendDouble(snapshot.bytesPerSecond, &output)
        output += ",\"evicted\":\(snapshot.evictedCount),\"operations\":\(snapshot.operations.count),"
        output += "\"log\":\(snapshot.log.count),\"version\":\(snapshot.version)}\n"
        for op in snapshot.operations { encode(op, into: &output) }
        for entry in snapshot.log { encode(entry, into: &output) }
        output += "{\"event\":\"snapshot_end\",\"seq\":\(seq)}\n"
    }

    /// The keyframe for `snapshot` as one string.
    public static func lines(_ snapshot: QueueSnapshot, seq: UInt64) -> String {
        var output = ""
        output.reserveCapacity(256 + snapshot.operations.count * 320)
        encode(snapshot, seq: seq, into: &output)
        return output
    }

    static func encode(_ op: OperationSnapshot, into output: inout String) {
        output += "{\"event\":\"snapshot_op\",\"id\":\(op.id),\"op\":"
        JSONLinesEncoder.appendString(op.name, &output)
        output += ",\"kind\":\"\(op.kind.rawValue)\",\"unit\":\"\(op.unit.rawValue)\","
        output += "\"state\":\"\(op.lifecycle.rawValue)\""
        if let outcome = op.outcome { output += ",\"outcome\":\"\(outcome.rawValue)\"" }
        if let message = op.message {
            output += ",\"message\":"
            JSONLinesEncoder.appendString(message, &output)
        }
        output += ",\"bytes\":\(op.completedBytes),\"total\":\(op.totalBytes),\"rate\":"
        appendDouble(op.bytesPerSecond, &output)
        output += ",\"retries\":\(op.retries)"
        if let next = op.nextAttemptAt {
            output += ",\"next\":"
            appendPreciseTime(next, &output)
        }
        output += ",\"after\":["
        for (index, dependency) in op.dependencies.enumerated() {
            if index > 0 { output += "," }
            output += "\(dependency)"
        }
        output += "],\"added\":"
        appendPreciseTime(op.addedAt, &output)
        if let started = op.startedAt {
            output += ",\"started\":"
            appendPreciseTime(started, &output)
        }
        if let finished = op.finishedAt {
            output += ",\"finished\":"
            appendPreciseTime(finished, &output)
        }
        output += ",\"history\":["
        for (index, change) in op.history.enumerated() {
            if index > 0 { output += "," }
            output += "{\"t\":"
            appendPreciseTime(change.time, &output)
            output += ",\"state\":\"\(change.lifecycle.rawValue)\""
            if let outcome = change.outcome { output += ",\"outcome\":\"\(outcome.rawValue)\"" }
            output += "}"
        }
        output += "],\"retry_log\":["
        for (index, line) in op.retryLog.enumerated() {
            if index > 0 { output += "," }
            JSONLinesEncoder.appendString(line, &output)
        }
        output += "]}\n"
    }

    static func encode(_ entry: LogEntry, into output: inout String) {
        output += "{\"t\":"
        appendPreciseTime(entry.time, &output)
        output += ",\"event\":\"snapshot_log\",\"kind\":\"\(entry.kind.rawValue)\""
        if let id = entry.operationID { output += ",\"id\":\(id)" }
        if let parts = entry.stateParts {
            if let name = parts.name {
                output += ",\"op\":"
                JSONLinesEncoder.appendString(name, &output)
            }
            output += ",\"from\":\"\(parts.from.rawValue)\",\"to\":\"\(parts.to.rawValue)\""
            if let outcome = parts.outcome { output += ",\"outcome\":\"\(outcome.rawValue)\"" }
            if let message = parts.message {
                output += ",\"message\":"
                JSONLinesEncoder.appendString(message, &output)
            }
        } else {
            output += ",\"text\":"
            JSONLinesEncoder.appendString(entry.text, &output)
        }
        output += "}\n"
    }

    /// A finite double in a form JSON accepts and that reads back to the same value.
    static func appendDouble(_ value: Double, _ output: inout String) {
        output += value.isFinite ? "\(value)" : "0"
    }

    /// Seconds to the nanosecond, e.g. `12.345000001`.
    static func appendPreciseTime(_ time: Duration, _ output: inout String) {
        let (seconds, attoseconds) = time.components
        let nanos = max(0, attoseconds / 1_000_000_000)
        output += "\(max(0, seconds))."
        let digits = String(nanos)
        output += String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }
}
