import Foundation

/// An operation that reports its progress: what it does (`kind`), units done of a total, the
/// rate if it knows it, and retries. The monitor shows any operation that adopts it with a
/// progress bar, rate and ETA (dashboard) and `progress` lines (headless), and watches its
/// `reportedProgress` only while it runs.
///
/// Adopting it takes a kind, a stored `ProgressStorage`, and calls to `reportProgress` as the
/// work moves:
///
/// ```swift
/// final class ThumbnailOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
///     let kind = OperationKind.process
///     let progressStorage = ProgressStorage(total: 100, unit: .items)
///     override func execute() {
///         render(onStep: { [weak self] done in self?.reportProgress(completed: done) }) { [weak self] error in
///             self?.finish(error: error)
///         }
///     }
/// }
/// ```
public protocol ProgressReportingOperation: AsyncOperation {
    /// What the operation does, for display.
    var kind: OperationKind { get }
    /// Where the progress is kept and published; a stored constant.
    var progressStorage: ProgressStorage { get }
}

extension ProgressReportingOperation {
    /// The progress now; observable (`observe(\.reportedProgress, …)`), one notification per
    /// change.
    public var reportedProgress: OperationProgress { progressStorage.value }

    /// One line per failed attempt, oldest first ("attempt 1 failed at 40%: connection reset").
    public var retryLog: [String] { progressStorage.retryLog }

    /// Publishes `completed` units done (and the total, when it became known or changed); a
    /// report also ends a retry wait. Pass `unitsPerSecond` if you measure the rate yourself;
    /// nil lets the monitor derive it from your reports. Ignored once the operation finished
    /// (work that was not told to stop may go on reporting; the progress stays as it was at
    /// the finish, like a late `finish` call changes nothing).
    public func reportProgress(completed: Int64, total: Int64? = nil, unitsPerSecond: Double? = nil) {
        updateProgress { progress in
            progress.completedUnitCount = completed
            if let total { progress.totalUnitCount = total }
            progress.unitsPerSecond = unitsPerSecond
            progress.retryDelay = nil
        }
    }

    /// Records a failed attempt in the retry log; with `retryIn`, also counts a retry and
    /// publishes that the next attempt starts after that delay (shown as "retry n in 0:03").
    /// Without it (no retry left), only the log line is added: finish with the error next.
    public func reportAttemptFailed(_ message: String, retryIn delay: Duration?) {
        guard !isFinished else { return }
        let current = reportedProgress
        let percent = current.totalUnitCount > 0 ? " at \(Int((current.fractionCompleted * 100).rounded()))%" : ""
        progressStorage.appendLog("attempt \(current.retries + 1) failed\(percent): \(message)")
        guard let delay else { return }
        updateProgress { progress in
            progress.retries += 1
            progress.retryDelay = max(.zero, delay)
            progress.unitsPerSecond = 0
        }
    }

    /// Changes the progress with `body` and publishes it (nothing is published when `body`
    /// changed nothing, or once the operation finished). Safe from any thread.
    public func updateProgress(_ body: (inout OperationProgress) -> Void) {
        guard !isFinished else { return }
        progressStorage.property.update(publishingOn: self, body)
    }

    /// Calls `handler` with each change of `reportedProgress`, on the changing thread, until the
    /// returned token is invalidated: the subscription a monitor makes while the operation runs.
    public func observeProgress(
        _ handler: @escaping @Sendable (AsyncOperation, OperationProgress) -> Void
    ) -> NSKeyValueObservation {
        observe(\.reportedProgress, options: [.new]) { operation, change in
            guard let progress = change.newValue else { return }
            handler(operation, progress)
        }
    }
}

#if !canImport(ObjectiveC)
extension ProgressReportingOperation {
    static var progressReportingKeyPaths: [AnyKeyPath: String] {
        [\Self.reportedProgress: ProgressReportingKeys.reportedProgress]
    }
}
#endif
