import OpsKit

/// Resolves one (validated) entry, or one member of a group, into a `ResolvedOperation`.
/// Every draw comes from a generator derived from the seed, the operation id and the field name,
/// so values do not depend on file order or on which other fields are present.
struct OperationDraw {
    let entry: OperationEntry
    let kind: OperationKind
    let root: SeededGenerator
    private let idTemplate: IndexTemplate
    private let nameTemplate: IndexTemplate
    private let afterTemplates: [IndexTemplate]

    init(entry: OperationEntry, kind: OperationKind, root: SeededGenerator) {
        self.entry = entry
        self.kind = kind
        self.root = root
        idTemplate = IndexTemplate(entry.id)
        nameTemplate = IndexTemplate(entry.name ?? entry.id)
        afterTemplates = (entry.after ?? []).map(IndexTemplate.init)
    }

    /// The operation for group member `number` (1-based), or for a single entry when nil.
    func resolve(number: Int?) -> ResolvedOperation {
        let id = idTemplate.render(number)
        let base = root.derived(StableHash.of(id))
        func draw(_ field: String, _ spec: NumberSpec) -> Double {
            var generator = base.derived(StableHash.of(field))
            return generator.draw(spec)
        }
        let fails: Bool
        if let chance = entry.failureChance {
            fails = draw("failureChance", .range(min: 0, max: 1)) < chance
        } else {
            fails = entry.failure != nil
        }
        var op = ResolvedOperation(
            id: id, name: nameTemplate.render(number), kind: kind,
            dependencies: afterTemplates.map { $0.render(number) },
            dependencyPolicy: entry.onDependencyFailure.flatMap { EntryValidator.dependencyPolicies[$0] } ?? .runAnyway)
        if kind == .process {
            op.duration = Self.duration(seconds: draw("duration", entry.duration ?? .value(1)))
            if fails { op.processFailure = entry.failure?.message ?? "simulated processing error" }
            return op
        }
        var failure: FailurePlan?
        if fails {
            let at = entry.failure?.at ?? (entry.failure == nil ? .range(min: 0, max: 1) : .value(0.5))
            failure = FailurePlan(
                atFraction: draw("failure.at", at),
                message: entry.failure?.message ?? "simulated network error",
                failingAttempts: entry.failure?.attempts)
        }
        op.plan = TransferPlan(
            totalBytes: max(1, Int64(draw("size", entry.size ?? .value(1)).rounded())),
            bandwidth: max(1, Int64(draw("bandwidth", entry.bandwidth ?? .value(1)).rounded())),
            latency: Self.duration(seconds: draw("latency", entry.latency ?? .value(0))),
            jitter: draw("jitter", entry.jitter ?? .value(0)),
            failure: failure,
            maxRetries: entry.retries ?? 0,
            retryBackoff: Self.duration(seconds: draw("backoff", entry.backoff ?? .value(1))))
        return op
    }

    /// Seconds as a `Duration`, to the millisecond (so files and built-ins compare exactly).
    static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
