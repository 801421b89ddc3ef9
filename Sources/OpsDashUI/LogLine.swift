import OpsMonitor

/// One line of the event log pane: an entry, and how many identical entries in a row it
/// stands for (an operator pressing the same key again, a retry repeating). Successive changes
/// of the concurrency limit make one line: "concurrency limit 4→5", "4→6"… read "concurrency
/// limit 4→9".
struct LogLine {
    /// The newest of the entries the line stands for (a merged limit change: its text says the
    /// whole change).
    var entry: LogEntry
    /// How many entries in a row said the same.
    var repeats: Int

    /// Whether `next` repeats `entry` (state changes never do: each names its transition).
    static func repeats(_ next: LogEntry, _ entry: LogEntry) -> Bool {
        next.kind != .state && next.kind == entry.kind && next.operationID == entry.operationID
            && next.text == entry.text
    }

    /// How far back a limit change looks for the line it continues: the entries between two
    /// presses (the app's queue line and a viewer's audit line) are limit changes too.
    static let limitLookBack = 3

    /// The newest `limit` lines of `log`, oldest first, repeats and successive limit changes
    /// merged. O(log).
    ///
    /// Reads only the log's tail when it can (a frame shows a few lines of a log of hundreds):
    /// from an entry where a line surely starts, `limit` entries back first (a busy log is
    /// state changes, each a line of its own), twice as far each time that makes fewer lines.
    static func last<Log: RandomAccessCollection<LogEntry>>(_ limit: Int, of log: Log) -> [LogLine]
    where Log.Index == Int {
        guard limit > 0 else { return [] }
        if let lines = lastStateChanges(limit, of: log) { return lines }
        var reach = limit
        while true {
            var start = max(0, log.count - reach)
            while start > 0, !startsALine(at: start, of: log) { start -= 1 }
            let tail = lines(log[start...])
            if tail.count >= limit || start == 0 { return Array(tail.suffix(limit)) }
            reach *= 2
        }
    }

    /// The newest `limit` lines of `log` when its newest `limit` entries are all state changes
    /// (a busy log's tail): each is a line of its own, since a state change neither repeats
    /// nor continues a limit change, and no later entry merges into it. Nil, after reading at
    /// most up to the first other entry from the newest `limit`, when they are not.
    private static func lastStateChanges<Log: RandomAccessCollection<LogEntry>>(
        _ limit: Int, of log: Log
    ) -> [LogLine]? where Log.Index == Int {
        let start = log.endIndex - limit
        guard start >= log.startIndex else { return nil }
        var lines: [LogLine] = []
        lines.reserveCapacity(limit)
        for index in start..<log.endIndex {
            let entry = log[index]
            guard entry.kind == .state else { return nil }
            lines.append(LogLine(entry: entry, repeats: 1))
        }
        return lines
    }

    /// Whether entry `index` starts a line that no later entry merges into what comes before
    /// it, whatever came before: neither it nor the entry before it is a limit change (a limit
    /// change may merge into a line further back), and it does not repeat the entry before it
    /// (then the line before ends with that entry).
    private static func startsALine<Log: RandomAccessCollection<LogEntry>>(at index: Int, of log: Log) -> Bool
    where Log.Index == Int {
        let entry = log[index]
        let before = log[index - 1]
        return LimitChange(entry) == nil && LimitChange(before) == nil && !repeats(entry, before)
    }

    /// How many lines `log` makes once merged. O(log).
    static func count(_ log: some Collection<LogEntry>) -> Int {
        lines(log).count
    }

    /// Every line of `log`, oldest first.
    static func lines(_ log: some Collection<LogEntry>) -> [LogLine] {
        var lines: [LogLine] = []
        lines.reserveCapacity(log.count)
        for entry in log {
            if let last = lines.last, repeats(entry, last.entry) {
                lines[lines.count - 1].repeats += 1
                lines[lines.count - 1].entry = entry
                continue
            }
            if let change = LimitChange(entry), merge(change, entry, into: &lines) { continue }
            lines.append(LogLine(entry: entry, repeats: 1))
        }
        return lines
    }

    /// Continues the newest line of the same limit change (its new value is where `change`
    /// starts), looking back over limit changes only; false when there is none.
    private static func merge(_ change: LimitChange, _ entry: LogEntry, into lines: inout [LogLine]) -> Bool {
        var index = lines.count - 1
        while index >= max(0, lines.count - limitLookBack) {
            let line = lines[index]
            guard line.repeats == 1, let earlier = LimitChange(line.entry) else { return false }
            if earlier.lead == change.lead && line.entry.kind == entry.kind && earlier.to == change.from {
                var merged = entry
                merged.text = "\(change.lead)\(earlier.from)\(LimitChange.arrow)\(change.to)"
                lines[index].entry = merged
                return true
            }
            index -= 1
        }
        return false
    }
}

/// A log entry that changes the concurrency limit: "concurrency limit 4→5", "uid 1000 (alice):
/// limit 4→5".
struct LimitChange: Equatable {
    static let arrow = "→"
    /// The text before the values: "concurrency limit ".
    let lead: Substring
    let from: Int
    let to: Int

    init?(_ entry: LogEntry) {
        guard entry.kind == .queue || entry.kind == .action, entry.operationID == nil else { return nil }
        let text = entry.text
        guard text.last?.isNumber == true, let arrow = text.lastIndex(of: "→"),
            let to = Int(text[text.index(after: arrow)...])
        else { return nil }
        let start = text[..<arrow]
        let digits = start.reversed().prefix(while: \.isNumber).count
        guard digits > 0, let from = Int(start.suffix(digits)) else { return nil }
        let lead = start.dropLast(digits)
        guard lead.hasSuffix("limit ") else { return nil }
        self.lead = lead
        self.from = from
        self.to = to
    }
}
