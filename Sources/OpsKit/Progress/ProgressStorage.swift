import Synchronization

/// Where a `ProgressReportingOperation` keeps its progress and its retry log: declare it as a
/// stored constant (`let progressStorage = ProgressStorage(total: 100, unit: .items)`) and
/// update it through the protocol's `reportProgress` / `updateProgress` methods, which publish
/// each change as `reportedProgress`.
public final class ProgressStorage: Sendable {
    // Locking: the value lives in an `ObservedProperty` (its own Mutex); the log in `log`
    // (a Mutex). Neither is held while observers are told.
    @usableFromInline let property: ObservedProperty<OperationProgress>
    private let log = Mutex<[String]>([])

    /// Starts at `completed` of `total` units (0 = unknown) of `unit`.
    public init(completed: Int64 = 0, total: Int64 = 0, unit: ProgressUnit = .items) {
        property = ObservedProperty(
            ProgressReportingKeys.reportedProgress, OperationProgress(completed: completed, total: total, unit: unit))
    }

    /// The current value.
    public var value: OperationProgress { property.value }

    /// One line per failed attempt, oldest first.
    public var retryLog: [String] { log.withLock { $0 } }

    /// Appends a line to the retry log (before the change that counts the retry is published,
    /// so an observer of that change finds the line).
    func appendLog(_ line: String) {
        log.withLock { $0.append(line) }
    }
}

/// The names progress is published under.
enum ProgressReportingKeys {
    static let reportedProgress = "reportedProgress"
}
