import OpsKit

/// Checks one file entry's fields (before draws): kinds, required fields, bounds, limits.
struct EntryValidator {
    let entry: OperationEntry
    let path: String

    /// What `onDependencyFailure` may say, and the policy each value means.
    static let dependencyPolicies: [String: DependencyFailurePolicy] = [
        "run": .runAnyway, "cancel": .cancelIfAnyDependencyFailed,
    ]

    /// The entry's kind, after checking every field.
    func validate() throws(ScenarioProblem) -> OperationKind {
        guard !entry.id.isEmpty else { throw ScenarioProblem("\(path).id must not be empty") }
        let hasPlaceholder = entry.id.contains("{i}")
        if let count = entry.repeat {
            guard count >= 1 else { throw ScenarioProblem("\(path).repeat must be >= 1 (got \(count))") }
            guard hasPlaceholder else { throw ScenarioProblem("\(path).id must contain {i} when repeat is set") }
        } else if hasPlaceholder {
            throw ScenarioProblem("\(path).id contains {i} but repeat is not set")
        } else if entry.name?.contains("{i}") == true {
            throw ScenarioProblem("\(path).name contains {i} but repeat is not set")
        } else if let index = entry.after?.firstIndex(where: { $0.contains("{i}") }) {
            throw ScenarioProblem("\(path).after[\(index)] contains {i} but repeat is not set")
        }
        let allowed = OperationKind.scenarioKinds.map(\.rawValue).joined(separator: ", ")
        guard let kind = OperationKind(rawValue: entry.kind), OperationKind.scenarioKinds.contains(kind) else {
            throw ScenarioProblem("\(path).kind must be one of \(allowed) (got \"\(entry.kind)\")")
        }
        if kind == .process { try validateProcess() } else { try validateTransfer(kind) }
        try check(entry.failure?.at, "failure.at", .unitInterval)
        if let attempts = entry.failure?.attempts, attempts < 1 {
            throw ScenarioProblem("\(path).failure.attempts must be >= 1 (got \(attempts))")
        }
        if let chance = entry.failureChance, !(0...1).contains(chance) {
            throw ScenarioProblem("\(path).failureChance must be within 0…1 (got \(ScenarioProblem.format(chance)))")
        }
        if let policy = entry.onDependencyFailure {
            guard Self.dependencyPolicies[policy] != nil else {
                throw ScenarioProblem("\(path).onDependencyFailure must be \"run\" or \"cancel\" (got \"\(policy)\")")
            }
            guard entry.after?.isEmpty == false else {
                throw ScenarioProblem("\(path).onDependencyFailure needs after (the entry has no dependencies)")
            }
        }
        var seen: Set<String> = []
        for dep in entry.after ?? [] where !seen.insert(dep).inserted {
            throw ScenarioProblem("\(path).after lists \"\(dep)\" more than once")
        }
        return kind
    }

    private func validateTransfer(_ kind: OperationKind) throws(ScenarioProblem) {
        guard entry.size != nil else {
            throw ScenarioProblem("\(path).size is required for \(kind.rawValue) operations")
        }
        guard entry.bandwidth != nil else {
            throw ScenarioProblem("\(path).bandwidth is required for \(kind.rawValue) operations")
        }
        if entry.duration != nil { throw ScenarioProblem("\(path).duration is only for process operations") }
        try check(entry.size, "size", .positive(limit: ScenarioLimits.maxSize, label: "1 TB"))
        try check(entry.bandwidth, "bandwidth", .positive(limit: ScenarioLimits.maxBandwidth, label: "100 GB/s"))
        try check(entry.latency, "latency", .nonNegative(limit: ScenarioLimits.maxSeconds, label: "1 day"))
        try check(entry.jitter, "jitter", .unitInterval)
        try check(entry.backoff, "backoff", .nonNegative(limit: ScenarioLimits.maxSeconds, label: "1 day"))
        if let retries = entry.retries {
            guard retries >= 0 else { throw ScenarioProblem("\(path).retries must be >= 0 (got \(retries))") }
            guard retries <= ScenarioLimits.maxRetries else {
                throw ScenarioProblem("\(path).retries must be <= \(ScenarioLimits.maxRetries) (got \(retries))")
            }
        }
    }

    private func validateProcess() throws(ScenarioProblem) {
        guard entry.duration != nil else {
            throw ScenarioProblem("\(path).duration is required for process operations")
        }
        let unused: [(String, Bool)] = [
            ("size", entry.size != nil), ("bandwidth", entry.bandwidth != nil),
            ("latency", entry.latency != nil), ("jitter", entry.jitter != nil),
            ("retries", entry.retries != nil), ("backoff", entry.backoff != nil),
            ("failure.at", entry.failure?.at != nil), ("failure.attempts", entry.failure?.attempts != nil),
        ]
        if let field = unused.first(where: \.1)?.0 {
            throw ScenarioProblem("\(path).\(field) is not used by process operations")
        }
        try check(entry.duration, "duration", .positive(limit: ScenarioLimits.maxSeconds, label: "1 day"))
    }

    enum Bound {
        case positive(limit: Double, label: String)
        case nonNegative(limit: Double, label: String)
        case unitInterval
    }

    private func check(_ spec: NumberSpec?, _ field: String, _ bound: Bound) throws(ScenarioProblem) {
        guard let spec else { return }
        switch spec {
        case .value(let v):
            try check(v, "\(path).\(field)", bound)
        case .range(let low, let high):
            try check(low, "\(path).\(field).min", bound)
            try check(high, "\(path).\(field).max", bound)
            guard low <= high else {
                throw ScenarioProblem(
                    "\(path).\(field).min must be <= max (got \(ScenarioProblem.format(low)) > \(ScenarioProblem.format(high)))"
                )
            }
        }
    }

    private func check(_ value: Double, _ name: String, _ bound: Bound) throws(ScenarioProblem) {
        let got = "(got \(ScenarioProblem.format(value)))"
        switch bound {
        case .positive(let limit, let label):
            guard value > 0 else { throw ScenarioProblem("\(name) must be > 0 \(got)") }
            guard value <= limit else {
                throw ScenarioProblem("\(name) must be <= \(ScenarioProblem.format(limit)) (\(label)) \(got)")
            }
        case .nonNegative(let limit, let label):
            guard value >= 0 else { throw ScenarioProblem("\(name) must be >= 0 \(got)") }
            guard value <= limit else {
                throw ScenarioProblem("\(name) must be <= \(ScenarioProblem.format(limit)) (\(label)) \(got)")
            }
        case .unitInterval:
            guard (0...1).contains(value) else { throw ScenarioProblem("\(name) must be within 0…1 \(got)") }
        }
    }
}
