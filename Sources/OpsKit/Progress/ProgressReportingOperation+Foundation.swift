import Foundation

extension ProgressReportingOperation {
    /// Publishes a Foundation `Progress`'s counts (`completedUnitCount`, `totalUnitCount`; a
    /// negative total, Foundation's "indeterminate", as unknown) as this operation's progress:
    /// how an operation whose work reports through `Progress` (e.g. a `URLSessionTask`'s
    /// `progress`, or its own `ProgressReporting.progress`) shows it on the dashboard.
    ///
    /// Foundation's `Progress` publishes no KVO on Linux, so call it after updating the
    /// `Progress` (e.g. in the delegate callback that received data); on macOS you can also call
    /// it from a KVO observation of `fractionCompleted`.
    public func reportProgress(of progress: Progress) {
        let counts = OperationProgress(progress)
        reportProgress(completed: counts.completedUnitCount, total: counts.totalUnitCount)
    }
}

extension ProgressReportingOperation where Self: ProgressReporting {
    /// Publishes the operation's own Foundation `progress` (see `reportProgress(of:)`).
    public func publishFoundationProgress() {
        reportProgress(of: progress)
    }
}
