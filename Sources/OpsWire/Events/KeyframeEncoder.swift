import OpsMonitor

/// Writes a whole `QueueSnapshot` as JSON Lines (a keyframe): `snapshot_begin` with the
/// queue's settings, totals and the `seq` it is consistent with, one `snapshot_op` line per
/// operation, one `snapshot_log` line per log entry, then `snapshot_end`. `JSONLinesDecoder`
/// and `EventSnapshotBuilder` turn these lines back into the same snapshot; late-joining
/// viewers and recordings start from one.
///
/// The lines are written as UTF-8 bytes straight into one array (digits in place, plain names
/// copied whole), like `JSONLinesEncoder`'s byte output: a publisher encodes a keyframe of
/// 100,000 operations for each resync.
public enum KeyframeEncoder {
    /// Appends the keyframe lines for `snapshot` as UTF-8, each ending in "\n".
    public static func encode(_ snapshot: QueueSnapshot, seq: UInt64, into bytes: inout [UInt8]) {
        JSONBytes.append(#"{"t":"#, to: &bytes)
        appendPreciseTime(snapshot.time, &bytes)
        JSONBytes.append(#","event":"snapshot_begin","seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        JSONBytes.append(#","suspended":"#, to: &bytes)
        JSONBytes.append(snapshot.isSuspended, to: &bytes)
        appendField(#","limit":"#, Int64(snapshot.maxConcurrentOperationCount), &bytes)
        bytes.append(0x2C)
        JSONLinesEncoder.appendCounts(snapshot.counts, &bytes)
        appendField(#","bytes":"#, snapshot.completedBytes, &bytes)
        appendField(#","total":"#, snapshot.totalBytes, &bytes)
        JSONBytes.append(#","rate":"#, to: &bytes)
        appendDouble(snapshot.bytesPerSecond, &bytes)
        appendField(#","evicted":"#, Int64(snapshot.evictedCount), &bytes)
        appendField(#","operations":"#, Int64(snapshot.operations.count), &bytes)
        appendField(#","log":"#, Int64(snapshot.sharedLog.count), &bytes)
        JSONBytes.append(#","version":"#, to: &bytes)
        JSONBytes.append(snapshot.version, to: &bytes)
        appendHistory(snapshot.history, time: snapshot.time, &bytes)
        JSONBytes.append("}\n", to: &bytes)
        for op in snapshot.operations { encode(op, into: &bytes) }
        for entry in snapshot.sharedLog { encode(entry, into: &bytes) }
        JSONBytes.append(#"{"event":"snapshot_end","seq":"#, to: &bytes)
        JSONBytes.append(seq, to: &bytes)
        JSONBytes.append("}\n", to: &bytes)
    }

    /// The keyframe for `snapshot` as UTF-8 bytes.
    public static func bytes(_ snapshot: QueueSnapshot, seq: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + snapshot.operations.count * 320 + snapshot.sharedLog.count * 100)
        encode(snapshot, seq: seq, into: &bytes)
        return bytes
    }

    /// The keyframe for `snapshot` as one string.
    public static func lines(_ snapshot: QueueSnapshot, seq: UInt64) -> String {
        String(decoding: bytes(snapshot, seq: seq), as: UTF8.self)
    }

    static func encode(_ op: OperationSnapshot, into bytes: inout [UInt8]) {
        JSONBytes.append(#"{"event":"snapshot_op","id":"#, to: &bytes)
        JSONBytes.append(op.id, to: &bytes)
        JSONBytes.append(#","op":"#, to: &bytes)
        if let name = op.explicitName {
            JSONBytes.appendString(name, to: &bytes)
        } else {
            // `OperationSnapshot.defaultName(id:)`, written without building the string.
            bytes.append(0x22)
            JSONBytes.append(raw: OperationSnapshot.defaultNamePrefix, to: &bytes)
            JSONBytes.append(op.id, to: &bytes)
            bytes.append(0x22)
        }
        JSONBytes.append(#","kind":""#, to: &bytes)
        JSONBytes.append(raw: op.kind.rawValue, to: &bytes)
        JSONBytes.append(#"","unit":""#, to: &bytes)
        JSONBytes.append(raw: op.unit.rawValue, to: &bytes)
        JSONBytes.append(#"","state":""#, to: &bytes)
        JSONBytes.append(raw: op.lifecycle.rawValue, to: &bytes)
        bytes.append(0x22)
        appendOutcome(op.outcome, &bytes)
        if let message = op.message {
            JSONBytes.append(#","message":"#, to: &bytes)
            JSONBytes.appendString(message, to: &bytes)
        }
        appendField(#","bytes":"#, op.completedUnits, &bytes)
        appendField(#","total":"#, op.totalUnits, &bytes)
        JSONBytes.append(#","rate":"#, to: &bytes)
        appendDouble(op.unitsPerSecond, &bytes)
        appendField(#","retries":"#, Int64(op.retries), &bytes)
        if let next = op.nextAttemptAt {
            JSONBytes.append(#","next":"#, to: &bytes)
            appendPreciseTime(next, &bytes)
        }
        JSONBytes.append(#","after":"#, to: &bytes)
        JSONBytes.append(op.dependencies, to: &bytes)
        appendTimes(of: op, &bytes)
        JSONBytes.append(#","history":["#, to: &bytes)
        appendChanges(of: op, &bytes)
        JSONBytes.append(#"],"retry_log":["#, to: &bytes)
        for (index, line) in op.retryLog.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            JSONBytes.appendString(line, to: &bytes)
        }
        JSONBytes.append("]}\n", to: &bytes)
    }

    /// `,"added":…` and, once set, `,"started":…` and `,"finished":…`.
    static func appendTimes(of op: OperationSnapshot, _ bytes: inout [UInt8]) {
        JSONBytes.append(#","added":"#, to: &bytes)
        appendPreciseTime(op.addedAt, &bytes)
        if let started = op.startedAt {
            JSONBytes.append(#","started":"#, to: &bytes)
            appendPreciseTime(started, &bytes)
        }
        if let finished = op.finishedAt {
            JSONBytes.append(#","finished":"#, to: &bytes)
            appendPreciseTime(finished, &bytes)
        }
    }

    /// An operation's state changes, comma-separated: `{"t":…,"state":…}` each, with its outcome.
    /// `op`'s history, read in place (`history` builds an array for a row whose start and finish
    /// its times tell).
    static func appendChanges(of op: OperationSnapshot, _ bytes: inout [UInt8]) {
        var index = 0
        op.forEachChange { change in
            if index > 0 { bytes.append(0x2C) }
            index += 1
            JSONBytes.append(#"{"t":"#, to: &bytes)
            appendPreciseTime(change.time, &bytes)
            JSONBytes.append(#","state":""#, to: &bytes)
            JSONBytes.append(raw: change.lifecycle.rawValue, to: &bytes)
            bytes.append(0x22)
            appendOutcome(change.outcome, &bytes)
            bytes.append(0x7D)
        }
    }

    static func encode(_ entry: LogEntry, into bytes: inout [UInt8]) {
        JSONBytes.append(#"{"t":"#, to: &bytes)
        appendPreciseTime(entry.time, &bytes)
        JSONBytes.append(#","event":"snapshot_log","kind":""#, to: &bytes)
        JSONBytes.append(raw: entry.kind.rawValue, to: &bytes)
        bytes.append(0x22)
        if let id = entry.operationID {
            JSONBytes.append(#","id":"#, to: &bytes)
            JSONBytes.append(id, to: &bytes)
        }
        if let parts = entry.stateParts {
            if let name = parts.name {
                JSONBytes.append(#","op":"#, to: &bytes)
                JSONBytes.appendString(name, to: &bytes)
            }
            JSONBytes.append(#","from":""#, to: &bytes)
            JSONBytes.append(raw: parts.from.rawValue, to: &bytes)
            JSONBytes.append(#"","to":""#, to: &bytes)
            JSONBytes.append(raw: parts.to.rawValue, to: &bytes)
            bytes.append(0x22)
            appendOutcome(parts.outcome, &bytes)
            if let message = parts.message {
                JSONBytes.append(#","message":"#, to: &bytes)
                JSONBytes.appendString(message, to: &bytes)
            }
        } else {
            JSONBytes.append(#","text":"#, to: &bytes)
            JSONBytes.appendString(entry.text, to: &bytes)
        }
        JSONBytes.append("}\n", to: &bytes)
    }

    /// A key (with its punctuation) and an integer value.
    private static func appendField(_ key: StaticString, _ value: Int64, _ bytes: inout [UInt8]) {
        JSONBytes.append(key, to: &bytes)
        JSONBytes.append(value, to: &bytes)
    }

    /// `,"outcome":"…"` when there is one.
    private static func appendOutcome(_ outcome: Outcome?, _ bytes: inout [UInt8]) {
        guard let outcome else { return }
        JSONBytes.append(#","outcome":""#, to: &bytes)
        JSONBytes.append(raw: outcome.rawValue, to: &bytes)
        bytes.append(0x22)
    }

    /// A finite double in a form JSON accepts and that reads back to the same value (Swift's
    /// shortest round-trip form; `0` for a non-finite one).
    static func appendDouble(_ value: Double, _ bytes: inout [UInt8]) {
        if value == 0, value.sign == .plus {
            JSONBytes.append("0.0", to: &bytes)  // most rates: no description built
        } else if value.isFinite {
            JSONBytes.append(raw: value.description, to: &bytes)
        } else {
            bytes.append(0x30)
        }
    }

    /// Seconds to the nanosecond, e.g. `12.345000001` (0 for a negative time).
    static func appendPreciseTime(_ time: Duration, _ bytes: inout [UInt8]) {
        let (seconds, attoseconds) = time.components
        guard seconds >= 0 else {
            JSONBytes.append("0.000000000", to: &bytes)
            return
        }
        JSONBytes.append(seconds, to: &bytes)
        bytes.append(0x2E)
        var nanos = max(0, attoseconds / 1_000_000_000)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { digits in
            for index in stride(from: 8, through: 0, by: -1) {
                digits[index] = 0x30 &+ UInt8(truncatingIfNeeded: nanos % 10)
                nanos /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(digits))
        }
    }

    /// The most a keyframe's `history` field takes, in bytes: the newest seconds that fit are
    /// sent (a reader's line limit is 64 KiB, and an older reader's too).
    package static let historyBudget = 32_768

    /// The series a `history` field holds, each an array of one value a second.
    package static let historySeries: [QueueHistory.Series] = [
        .succeeded, .failed, .cancelled, .bytes, .running, .waiting,
    ]

    /// `,"history":{"window":900,"newest":65,"succeeded":[…],…}`: the seconds held (the newest
    /// that fit in `historyBudget`), oldest first, the last the second `newest`; nothing for an
    /// empty history.
    static func appendHistory(_ history: QueueHistory, time: Duration, _ bytes: inout [UInt8]) {
        guard let newest = history.currentSecond else { return }
        var seconds = history.seconds(endingAt: .zero)
        var field: [UInt8] = []
        while true {
            field.removeAll(keepingCapacity: true)
            JSONBytes.append(#","history":{"window":"#, to: &field)
            JSONBytes.append(history.window, to: &field)
            JSONBytes.append(#","newest":"#, to: &field)
            JSONBytes.append(newest, to: &field)
            for series in historySeries {
                field.append(0x2C)
                field.append(0x22)
                JSONBytes.append(raw: series.rawValue, to: &field)
                JSONBytes.append(#"":["#, to: &field)
                for (index, second) in seconds.enumerated() {
                    if index > 0 { field.append(0x2C) }
                    JSONBytes.append(second.value(series), to: &field)
                }
                field.append(0x5D)
            }
            field.append(0x7D)
            guard field.count > historyBudget, seconds.count > 1 else { break }
            seconds.removeFirst(seconds.count / 2)
        }
        bytes += field
    }
}
