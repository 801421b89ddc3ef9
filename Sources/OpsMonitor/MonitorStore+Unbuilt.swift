import OpsKit

extension MonitorStore {
    // MARK: Operations counted without a row (`UnbuiltTickets`)

    /// Counts operation `id`, added at `time` in `lifecycle`, as `insert` would an operation of
    /// kind `.other` reporting no progress, without a row (nobody can read it before it is
    /// evicted) and without events (only while no reader keeps them).
    mutating func insertUnbuilt(id: Int, lifecycle: Lifecycle, time: Duration) {
        guard id >= nextID else { return }
        nextID = max(nextID, id + 1)
        counts[lifecycle, nil] += 1
        recordHistory(at: time)
        touch()
    }

    /// Moves operation `id`, counted without a row as `row`, to `lifecycle`, as `transition`
    /// would move its row, with no log entry (later finishes of the same backlog push it out of
    /// the log); at its finish it counts as evicted.
    mutating func transition(
        unbuilt row: inout UnbuiltRow, to lifecycle: Lifecycle, outcome: Outcome? = nil, time: Duration
    ) {
        guard row.lifecycle != .finished, row.lifecycle != lifecycle else { return }
        let from = row.lifecycle
        row.lifecycle = lifecycle
        if lifecycle == .executing { row.startedNanoseconds = time.nanoseconds }
        countTransition(
            from: from, to: lifecycle, outcome: outcome, kind: .other, missing: 0,
            addedAt: .nanoseconds(row.addedNanoseconds), startedAt: row.startedNanoseconds.map { .nanoseconds($0) },
            time: time)
        if lifecycle == .finished { evictedCount += 1 }
        touch()
    }
}
