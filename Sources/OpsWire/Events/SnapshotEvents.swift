import OpsMonitor

/// The monitor events that take a viewer from one picture to another, in time order, so a
/// stream that started from a snapshot reads like one that saw everything (`added`, each state
/// in the operation's history, the latest progress). Used to print a keyframe as headless lines.
public enum SnapshotEvents {
    public static func events(from previous: QueueSnapshot?, to current: QueueSnapshot) -> [MonitorEvent] {
        var timed = TimedEvents()
        if previous == nil || previous?.isSuspended != current.isSuspended
            || previous?.maxConcurrentOperationCount != current.maxConcurrentOperationCount
        {
            let time = previous == nil ? Duration.zero : current.time
            timed.add(
                time,
                .queue(
                    time: time, isSuspended: current.isSuspended,
                    maxConcurrentOperationCount: current.maxConcurrentOperationCount, counts: current.counts,
                    reason: "snapshot"))
        }
        for op in current.operations {
            addEvents(of: op, before: previous?.operation(id: op.id), at: current.time, to: &timed)
        }
        return timed.inOrder()
    }

    /// The events that take operation `op` from `before` (nil: a new operation) to what it is
    /// at `time`: its `added`, its states after the one the viewer had, its latest progress.
    private static func addEvents(
        of op: OperationSnapshot, before: OperationSnapshot?, at time: Duration, to timed: inout TimedEvents
    ) {
        if before == nil {
            timed.add(
                op.addedAt,
                .added(
                    time: op.addedAt, id: op.id, name: op.name, kind: op.kind, unit: op.unit,
                    totalBytes: op.totalUnits, dependencies: op.dependencies))
        }
        // The states after the one the viewer had (all of them for a new operation).
        var changes = op.history
        if let before, let index = changes.lastIndex(where: { $0.lifecycle == before.lifecycle }) {
            changes = Array(changes[(index + 1)...])
        }
        var from = before?.lifecycle
        for change in changes {
            if change.lifecycle == .finished, op.completedUnits != before?.completedUnits {
                timed.add(
                    change.time,
                    .progress(
                        time: change.time, id: op.id, completedBytes: op.completedUnits, totalBytes: op.totalUnits,
                        bytesPerSecond: 0, retries: op.retries))
            }
            timed.add(
                change.time,
                .state(
                    time: change.time, id: op.id, from: from, to: change.lifecycle, outcome: change.outcome,
                    message: change.lifecycle == .finished ? op.message : nil))
            from = change.lifecycle
        }
        if op.lifecycle != .finished,
            op.completedUnits != before?.completedUnits && op.completedUnits > 0
                || op.nextAttemptAt != before?.nextAttemptAt || op.retries != (before?.retries ?? 0)
        {
            timed.add(
                time,
                .progress(
                    time: time, id: op.id, completedBytes: op.completedUnits, totalBytes: op.totalUnits,
                    bytesPerSecond: op.unitsPerSecond, retries: op.retries, nextAttemptAt: op.nextAttemptAt))
        }
    }

    /// Events with their times, in the order they were added.
    private struct TimedEvents {
        private var timed: [(time: Duration, order: Int, event: MonitorEvent)] = []

        mutating func add(_ time: Duration, _ event: MonitorEvent) {
            timed.append((time, timed.count, event))
        }

        /// The events by time; at equal times, starts go last (a start never appears before the
        /// finish that freed its slot or its dependency), the others in the order added.
        func inOrder() -> [MonitorEvent] {
            func rank(_ event: MonitorEvent) -> Int {
                if case .state(_, _, _, .executing, _, _) = event { return 1 }
                return 0
            }
            return timed.sorted { (left, right) in
                (left.time, rank(left.event), left.order) < (right.time, rank(right.event), right.order)
            }.map(\.event)
        }
    }
}
