import Foundation

/// The operations a monitor saw finish most recently (at most a bound, the oldest dropped
/// first), so that a dependent the queue takes later still links to them.
///
/// Recording a finish appends to a ring; the table by operation is built the first time a
/// dependency is looked for here and kept up to date from then on. Most monitors never look
/// one up (a dependent is usually taken while its dependency is still tracked), and a table
/// insert and removal at every finish was a good part of a finish's cost.
struct RecentlyFinished {
    /// The newest finishes, in a ring of at most the bound: once it is full, `next` is the
    /// oldest, which the next finish replaces in place (a deque's append and pop cost twice
    /// as much, at every finish).
    private var ring: [(key: OperationKey, operation: QueueMonitor.FinishedOperation)] = []
    private var next = 0
    /// `ring` by operation (the newest finish of a reused address wins); nil until asked.
    private var byKey: [OperationKey: QueueMonitor.FinishedOperation]?

    /// Finishes held.
    var count: Int { ring.count }

    /// Records that `op` (id `id`) finished, keeping the newest `bound` finishes.
    mutating func record(_ op: Operation, id: Int, bound: Int) {
        let key = OperationKey(op)
        let done = QueueMonitor.FinishedOperation(op, id: id)
        if ring.count < max(1, bound) {
            ring.append((key, done))
        } else {
            if next >= ring.count { next = 0 }
            let oldest = ring[next]
            if byKey?[oldest.key]?.id == oldest.operation.id { byKey?.removeValue(forKey: oldest.key) }
            ring[next] = (key, done)
            next += 1
        }
        byKey?[key] = done
    }

    /// The id of `op` if it is among the finishes held (not another operation at a reused
    /// address).
    mutating func id(of op: Operation) -> Int? {
        if byKey == nil {
            var table: [OperationKey: QueueMonitor.FinishedOperation] = [:]
            table.reserveCapacity(ring.count)
            // Oldest first, so the newest finish of a reused address wins.
            let start = next < ring.count ? next : 0
            for index in ring.indices[start...] { table[ring[index].key] = ring[index].operation }
            for index in ring.indices[..<start] { table[ring[index].key] = ring[index].operation }
            byKey = table
        }
        guard let done = byKey?[OperationKey(op)] else { return nil }
        return done.matches(op) ? done.id : nil
    }
}
