import OpsKit

/// The names `OperationSnapshot`'s progress fields had before they said what they hold: units,
/// which are bytes only when `unit` is `.bytes`.
extension OperationSnapshot {
    /// Units done: renamed `completedUnits`.
    @available(*, deprecated, renamed: "completedUnits")
    public var completedBytes: Int64 {
        get { completedUnits }
        set { completedUnits = newValue }
    }

    /// Units in total: renamed `totalUnits`.
    @available(*, deprecated, renamed: "totalUnits")
    public var totalBytes: Int64 {
        get { totalUnits }
        set { totalUnits = newValue }
    }

    /// Units per second: renamed `unitsPerSecond`.
    @available(*, deprecated, renamed: "unitsPerSecond")
    public var bytesPerSecond: Double {
        get { unitsPerSecond }
        set { unitsPerSecond = newValue }
    }

    /// The initializer with the fields' former names.
    @available(*, deprecated, message: "the progress labels are completedUnits, totalUnits and unitsPerSecond")
    public init(
        id: Int, name: String, kind: OperationKind = .other, unit: ProgressUnit = .bytes, lifecycle: Lifecycle = .ready,
        outcome: Outcome? = nil, message: String? = nil, completedBytes: Int64,
        totalBytes: Int64 = 0, bytesPerSecond: Double = 0, retries: Int = 0, nextAttemptAt: Duration? = nil,
        dependencies: [Int] = [], addedAt: Duration = .zero, startedAt: Duration? = nil,
        finishedAt: Duration? = nil, history: [StateChange] = [], retryLog: [String] = []
    ) {
        self.init(
            id: id, name: name, kind: kind, unit: unit, lifecycle: lifecycle, outcome: outcome, message: message,
            completedUnits: completedBytes, totalUnits: totalBytes, unitsPerSecond: bytesPerSecond, retries: retries,
            nextAttemptAt: nextAttemptAt, dependencies: dependencies, addedAt: addedAt, startedAt: startedAt,
            finishedAt: finishedAt, history: history, retryLog: retryLog)
    }
}
