import OpsMonitor

/// One line of the event log pane: an entry, and how many identical entries in a row it
/// stands for (an operator pressing the same key again, a retry repeating).
struct LogLine {
    /// The newest of the entries the line stands for.
    var entry: LogEntry
    /// How many entries in a row said the same.
    var repeats: Int

    /// Whether `next` repeats `entry` (state changes never do: each names its transition).
    static func repeats(_ next: LogEntry, _ entry: LogEntry) -> Bool {
        next.kind != .state && next.kind == entry.kind && next.operationID == entry.operationID
            && next.text == entry.text
    }

    /// The newest `limit` lines of `log`, oldest first, repeats merged. O(lines shown + repeats).
    static func last(_ limit: Int, of log: [LogEntry]) -> [LogLine] {
        guard limit > 0 else { return [] }
        var lines: [LogLine] = []
        var index = log.count - 1
        while index >= 0 {
            let entry = log[index]
            var count = 1
            while index - count >= 0 && repeats(log[index - count], entry) { count += 1 }
            if lines.count == limit { break }
            lines.append(LogLine(entry: entry, repeats: count))
            index -= count
        }
        return lines.reversed()
    }

    /// How many lines `log` makes once repeats are merged. O(n).
    static func count(_ log: [LogEntry]) -> Int {
        var count = 0
        var previous: LogEntry?
        for entry in log {
            if let previous, repeats(entry, previous) { continue }
            count += 1
            previous = entry
        }
        return count
    }
}
