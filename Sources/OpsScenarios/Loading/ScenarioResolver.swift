import OpsKit

/// Turns a decoded file into a `ResolvedScenario`: validate, expand groups, draw ranges, check
/// the dependency graph.
enum ScenarioResolver {
    static func resolve(_ file: ScenarioFile, seed: UInt64) throws(ScenarioProblem) -> ResolvedScenario {
        guard file.concurrency >= 1 else {
            throw ScenarioProblem("concurrency must be >= 1 (got \(file.concurrency))")
        }
        guard file.concurrency <= ScenarioLimits.maxConcurrency else {
            throw ScenarioProblem("concurrency must be <= \(ScenarioLimits.maxConcurrency) (got \(file.concurrency))")
        }
        guard !file.operations.isEmpty else { throw ScenarioProblem("operations must not be empty") }
        var kinds: [OperationKind] = []
        var total = 0
        for (index, entry) in file.operations.enumerated() {
            kinds.append(try EntryValidator(entry: entry, path: "operations[\(index)]").validate())
            total += min(entry.repeat ?? 1, ScenarioLimits.maxOperations + 1)  // checked before expanding
            if total > ScenarioLimits.maxOperations { break }
        }
        guard total <= ScenarioLimits.maxOperations else {
            let exact = file.operations.reduce(0) { sum, entry in
                let (next, overflow) = sum.addingReportingOverflow(entry.repeat ?? 1)
                return overflow ? Int.max : next
            }
            let count = exact == Int.max ? "more than \(Int.max)" : "\(exact)"
            throw ScenarioProblem(
                "too many operations: \(count) after repeat expansion (limit \(ScenarioLimits.maxOperations))")
        }
        let root = SeededGenerator(seed: seed)
        var operations: [ResolvedOperation] = []
        operations.reserveCapacity(total)
        var origin: [String: Int] = [:]
        var entryOf: [Int] = []
        for (index, entry) in file.operations.enumerated() {
            let drawer = OperationDraw(entry: entry, kind: kinds[index], root: root)
            for i in 1...(entry.repeat ?? 1) {
                let op = drawer.resolve(number: entry.repeat == nil ? nil : i)
                if let first = origin[op.id] {
                    throw ScenarioProblem(
                        "operations[\(index)].id \"\(op.id)\" is already used by operations[\(first)]")
                }
                origin[op.id] = index
                entryOf.append(index)
                operations.append(op)
            }
        }
        var graph: [String: [String]] = [:]
        for (position, op) in operations.enumerated() {
            for dep in op.dependencies where origin[dep] == nil {
                throw ScenarioProblem("operations[\(entryOf[position])].after refers to unknown id \"\(dep)\"")
            }
            graph[op.id] = op.dependencies
        }
        if let cycle = DependencyCycle.find(ids: operations.map(\.id), dependencies: graph) {
            throw ScenarioProblem("dependency cycle: \(cycle.joined(separator: " → "))")
        }
        return ResolvedScenario(
            name: file.name, description: file.description, concurrency: file.concurrency, seed: seed,
            operations: operations)
    }
}
