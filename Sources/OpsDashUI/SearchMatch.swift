import OpsMonitor

/// What `/` searches: every field the dashboard shows of an operation, case-insensitively — its
/// name, `#id`, state word, the error or cancellation text, each retry log line and the WHY text
/// ("needs #3", "slots busy", "queue paused", "retry 2 in 0:03").
enum SearchMatch {
    /// Whether `operation` shows `needle` (lowercased) anywhere, under `state`'s picture.
    static func matches(_ operation: OperationSnapshot, _ needle: String, in state: DashboardState) -> Bool {
        guard !needle.isEmpty else { return false }
        if RowOrder.matches(operation, needle) { return true }
        if let message = operation.message, message.lowercased().contains(needle) { return true }
        if operation.retryLog.contains(where: { $0.lowercased().contains(needle) }) { return true }
        let why = WaitReason(operation, in: state).cell.0
        return why.lowercased().contains(needle)
    }

    /// The rows (indices in `state.rows`) whose operation matches `state.search`, in row order.
    /// O(rows).
    static func rows(in state: DashboardState) -> [Int] {
        let needle = state.search.lowercased()
        guard !needle.isEmpty else { return [] }
        let rows = state.rows
        var found: [Int] = []
        for index in 0..<rows.count(in: state.snapshot) {
            guard let operation = rows.operation(at: index, in: state.snapshot) else { continue }
            if matches(operation, needle, in: state) { found.append(index) }
        }
        return found
    }

    /// The match to select from row `current`: the first after it (`forward`) or before it,
    /// wrapping round; with `includingCurrent`, `current` itself when it matches. Returns the
    /// match's position among `matches` (nil when there are none).
    static func next(from current: Int, in matches: [Int], forward: Bool, includingCurrent: Bool = false) -> Int? {
        guard !matches.isEmpty else { return nil }
        if forward {
            let after = matches.firstIndex { includingCurrent ? $0 >= current : $0 > current }
            return after ?? 0
        }
        let before = matches.lastIndex { $0 < current }
        return before ?? matches.count - 1
    }
}
