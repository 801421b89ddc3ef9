import DequeModule
import Foundation

/// The operations a monitor saw finish most recently (at most a bound, the oldest dropped
/// first), so that a dependent the queue takes later still links to them.
///
/// Recording a finish appends to a ring; the table by operation is built the first time a
/// dependency is looked for here and kept up to date from then on. Most monitors never look
/// one up (a dependent is usually taken while its dependency is still tracked), and a table
/// insert and removal at every finish was a good part of a finish's cost.
struct RecentlyFinished {
    private var order = Deque<(key: OperationKey, operation: QueueMonitor.FinishedOperation)>()
    /// `order` by operation (the newest finish of a reused address wins); nil until asked.
    private var byKey: [OperationKey: QueueMonitor.FinishedOperation]?

    /// Finishes held.
    var count: Int { order.count }

    /// Records that `op` (id `id`) finished, keeping the newest `bound` finishes.
    mutating func record(_ op: Operation, id: Int, bound: Int) {
        let key = OperationKey(op)
        let done = QueueMonitor.FinishedOperation(op, id: id)
        order.append((key, done))
        byKey?[key] = done
        while order.count > max(1, bound), let oldest = order.popFirst() {
            if byKey?[oldest.key]?.id == oldest.operation.id { byKey?.removeValue(forKey: oldest.key) }
        }
    }

    /// The id of `op` if it is among the finishes held (not another operation at a reused
    /// address).
    mutating func id(of op: Operation) -> Int? {
        if byKey == nil {
            var table: [OperationKey: QueueMonitor.FinishedOperation] = [:]
            table.reserveCapacity(order.count)
            for entry in order { table[entry.key] = entry.operation }
            byKey = table
        }
        guard let done = byKey?[OperationKey(op)] else { return nil }
        return done.matches(op) ? done.id : nil
    }
}
