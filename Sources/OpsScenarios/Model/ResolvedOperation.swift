import OpsKit

/// One operation of a resolved scenario: defaults applied, ranges drawn, groups expanded.
public struct ResolvedOperation: Sendable, Equatable {
    /// Unique id.
    public var id: String
    /// Display name.
    public var name: String
    /// Download, upload or process.
    public var kind: OperationKind
    /// Transfer parameters (download/upload only).
    public var plan: TransferPlan?
    /// How long the work takes (process only).
    public var duration: Duration?
    /// When set, the process operation fails with this message at the end of its work.
    public var processFailure: String?
    /// Ids this operation waits for, in declared order.
    public var dependencies: [String]
    /// Whether it runs after a dependency failed or was cancelled (Foundation's way) or is
    /// cancelled instead.
    public var dependencyPolicy: DependencyFailurePolicy

    /// Creates a value with every field given.
    public init(
        id: String, name: String, kind: OperationKind, plan: TransferPlan? = nil,
        duration: Duration? = nil, processFailure: String? = nil, dependencies: [String] = [],
        dependencyPolicy: DependencyFailurePolicy = .runAnyway
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.plan = plan
        self.duration = duration
        self.processFailure = processFailure
        self.dependencies = dependencies
        self.dependencyPolicy = dependencyPolicy
    }
}
