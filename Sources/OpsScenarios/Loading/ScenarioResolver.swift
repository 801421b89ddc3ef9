import OpsKit

/// Turns a decoded file into a `ResolvedScenario`: validate, expand groups, draw ranges, check
/// the dependency graph.
enum ScenarioResolver {
    static func resolve(_ file: ScenarioFile, seed: UInt64) throws(ScenarioProblem) -> ResolvedScenario {
        try checkConcurrency(file.concurrency)
        guard !file.operations.isEmpty else { throw ScenarioProblem("operations must not be empty") }
        let (kinds, total) = try validateEntries(file.operations)
        let (operations, position, entryOf) = try expand(file.operations, kinds: kinds, total: total, seed: seed)
        try checkDependencies(operations, position: position, entryOf: entryOf)
        return ResolvedScenario(
            name: file.name, description: file.description, concurrency: file.concurrency, seed: seed,
            operations: operations)
    }

    /// Checks `concurrency` is between 1 and `ScenarioLimits.maxConcurrency`.
    private static func checkConcurrency(_ concurrency: Int) throws(ScenarioProblem) {
        guard concurrency >= 1 else {
            throw ScenarioProblem("concurrency must be >= 1 (got \(concurrency))")
        }
        guard concurrency <= ScenarioLimits.maxConcurrency else {
            throw ScenarioProblem("concurrency must be <= \(ScenarioLimits.maxConcurrency) (got \(concurrency))")
        }
    }

    /// Validates every entry; returns each one's kind and the operations they expand to (at most
    /// `ScenarioLimits.maxOperations`).
    private static func validateEntries(
        _ entries: [OperationEntry]
    ) throws(ScenarioProblem) -> (kinds: [OperationKind], total: Int) {
        var kinds: [OperationKind] = []
        var total = 0
        for (index, entry) in entries.enumerated() {
            kinds.append(try EntryValidator(entry: entry, path: "operations[\(index)]").validate())
            // Checked before expanding, and only once every entry is valid (a negative repeat
            // is its own error, never part of a total).
            total = min(total + (entry.repeat ?? 1), ScenarioLimits.maxOperations + 1)
        }
        guard total <= ScenarioLimits.maxOperations else {
            let exact = entries.reduce(0) { sum, entry in
                let (next, overflow) = sum.addingReportingOverflow(entry.repeat ?? 1)
                return overflow ? Int.max : next
            }
            let count = exact == Int.max ? "more than \(Int.max)" : "\(exact)"
            throw ScenarioProblem(
                "too many operations: \(count) after repeat expansion (limit \(ScenarioLimits.maxOperations))")
        }
        return (kinds, total)
    }

    /// Expands the entries' repeats and draws their ranges; returns the operations, each id's
    /// position and each operation's entry. Throws on an id used twice.
    private static func expand(
        _ entries: [OperationEntry], kinds: [OperationKind], total: Int, seed: UInt64
    ) throws(ScenarioProblem) -> (operations: [ResolvedOperation], position: [String: Int], entryOf: [Int]) {
        let root = SeededGenerator(seed: seed)
        var operations: [ResolvedOperation] = []
        operations.reserveCapacity(total)
        var position: [String: Int] = [:]
        position.reserveCapacity(total)
        var entryOf: [Int] = []
        entryOf.reserveCapacity(total)
        for (index, entry) in entries.enumerated() {
            let drawer = OperationDraw(entry: entry, kind: kinds[index], root: root)
            for i in 1...(entry.repeat ?? 1) {
                let op = drawer.resolve(number: entry.repeat == nil ? nil : i)
                if let first = position.updateValue(operations.count, forKey: op.id) {
                    throw ScenarioProblem(
                        "operations[\(index)].id \"\(op.id)\" is already used by operations[\(entryOf[first])]")
                }
                entryOf.append(index)
                operations.append(op)
            }
        }
        return (operations, position, entryOf)
    }

    /// Checks every `after` names a known id and the dependencies have no cycle.
    private static func checkDependencies(
        _ operations: [ResolvedOperation], position: [String: Int], entryOf: [Int]
    ) throws(ScenarioProblem) {
        var graph: [[Int]] = []
        graph.reserveCapacity(operations.count)
        for (index, op) in operations.enumerated() {
            graph.append(
                try op.dependencies.map { dep throws(ScenarioProblem) in
                    guard let target = position[dep] else {
                        throw ScenarioProblem("operations[\(entryOf[index])].after refers to unknown id \"\(dep)\"")
                    }
                    return target
                })
        }
        if let cycle = DependencyCycle.find(dependencies: graph) {
            throw ScenarioProblem("dependency cycle: \(cycle.map { operations[$0].id }.joined(separator: " → "))")
        }
    }
}
