import OpsMonitor

/// The monitor events that take a viewer from one picture to another, in time order, so a
/// stream that started from a snapshot reads like one that saw everything (`added`, each state
/// in the operation's history, the latest progress). Used to print a keyframe as headless lines.
public enum SnapshotEvents {
    public static func events(from previous: QueueSnapshot?, to current: QueueSnapshot) -> [MonitorEvent] {
        var timed: [(time: Duration, order: Int, event: MonitorEvent)] = []
        var order = 0
        func add(_ time: Duration, _ event: MonitorEvent) {
            timed.append((time, order, event))
            order += 1
        }
        if previous == nil || previous?.isSuspended != current.isSuspended
            || previous?.maxConcurrentOperationCount != current.maxConcurrentOperationCount
        {
            let time = previous == nil ? Duration.zero : current.time
            add(
                time,
                .queue(
                    time: time, isSuspended: current.isSuspended,
                    maxConcurrentOperationCount: current.maxConcurrentOperationCount, counts: current.counts,
                    reason: "snapshot"))
        }
        for op in current.operations {
            let before = previous?.operation(id: op.id)
            if before == nil {
                add(
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
                    add(
                        change.time,
                        .progress(
                            time: change.time, id: op.id, completedBytes: op.completedUnits, totalBytes: op.totalUnits,
                            bytesPerSecond: 0, retries: op.retries))
                }
                add(
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
                add(
                    current.time,
                    .progress(
                        time: current.time, id: op.id, completedBytes: op.completedUnits, totalBytes: op.totalUnits,
                        bytesPerSecond: op.unitsPerSecond, retries: op.retries, nextAttemptAt: op.nextAttemptAt))
            }
        }
        // At equal times, starts go last: a start never appears before the finish that freed
        // its slot or its dependency.
        func rank(_ event: MonitorEvent) -> Int {
            if case .state(_, _, _, .executing, _, _) = event { return 1 }
            return 0
        }
        return timed.sorted { (left, right) in
            (left.time, rank(left.event), left.order) < (right.time, rank(right.event), right.order)
        }.map(\.event)
    }
}
