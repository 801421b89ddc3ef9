import Foundation

/// What a child of `withObservedTaskGroup` reports its progress through: its row on the
/// dashboard shows units done of the total, the rate and the ETA, as for any
/// `ProgressReportingOperation`. Safe from any thread; reports after the child finished (or was
/// cancelled) are ignored.
public struct ObservedTaskProgress: Sendable {
    let operation: ObservedChildOperation

    /// Publishes `completed` units done, and the total when it became known or changed
    /// (0 = unknown).
    public func report(completed: Int64, total: Int64? = nil) {
        operation.reportProgress(completed: completed, total: total)
    }

    /// Publishes a Foundation `Progress`'s counts (a negative total, indeterminate, as unknown).
    /// Foundation's `Progress` sends no change notifications on Linux: call it after updating it.
    public func report(_ progress: Progress) {
        operation.reportProgress(of: progress)
    }
}
