/// Where a progress-reporting operation stands: published as one value, so an observer sees
/// every field of a change together.
public struct OperationProgress: Sendable, Equatable {
    /// Units done so far (kept across retries when an attempt resumes).
    public var completedUnitCount: Int64
    /// Units in all; 0 means unknown.
    public var totalUnitCount: Int64
    /// What a unit is.
    public var unit: ProgressUnit
    /// The current rate, units per second, if the operation knows it (e.g. over its last
    /// chunk); nil lets a monitor derive it from successive reports on its own clock.
    public var unitsPerSecond: Double?
    /// Retries used so far (0 while the first attempt runs).
    public var retries: Int
    /// Set while the operation waits out a retry back-off: how long after this report the next
    /// attempt starts. Nil while an attempt is under way.
    public var retryDelay: Duration?

    /// Creates a progress value; the defaults describe an operation that has not started.
    public init(
        completed: Int64 = 0, total: Int64 = 0, unit: ProgressUnit = .items, unitsPerSecond: Double? = nil,
        retries: Int = 0, retryDelay: Duration? = nil
    ) {
        self.completedUnitCount = completed
        self.totalUnitCount = total
        self.unit = unit
        self.unitsPerSecond = unitsPerSecond
        self.retries = retries
        self.retryDelay = retryDelay
    }

    /// 0…1 (0 while the total is unknown).
    public var fractionCompleted: Double {
        totalUnitCount > 0 ? min(1, max(0, Double(completedUnitCount) / Double(totalUnitCount))) : 0
    }

    /// Whether the operation is waiting out a retry back-off.
    public var isWaitingToRetry: Bool { retryDelay != nil }
}
