import OpsMonitor

/// The operations that depend on one, directly or through others: what `x` cancels with it.
enum Dependents {
    /// The ids of every operation in `snapshot` that depends on `id` directly or transitively,
    /// in id order, without `id` itself. A dependency cycle (an `Operation` graph can't have
    /// one, but a picture from a peer might) ends the walk instead of looping. O(n + edges).
    static func transitive(of id: Int, in snapshot: QueueSnapshot) -> [Int] {
        var dependents: [Int: [Int]] = [:]
        for operation in snapshot.operations {
            for dependency in operation.dependencies where dependency != operation.id {
                dependents[dependency, default: []].append(operation.id)
            }
        }
        var seen: Set<Int> = [id]
        var found: [Int] = []
        var pending = dependents[id] ?? []
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            found.append(next)
            pending.append(contentsOf: dependents[next] ?? [])
        }
        return found.sorted()
    }
}
