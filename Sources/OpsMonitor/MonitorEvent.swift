import OpsKit

/// Something the monitor saw, in the order its store applied it; what headless mode writes.
public enum MonitorEvent: Sendable, Equatable {
    /// An operation started being tracked; `unit` says what its progress counts (only `.bytes`
    /// operations add to the queue's byte totals).
    case added(
        time: Duration, id: Int, name: String, kind: OperationKind, unit: ProgressUnit = .bytes, totalBytes: Int64,
        dependencies: [Int])
    /// Operation `id` also runs after `dependencies`: operations the queue took after it (its
    /// `added` event could not name them yet).
    case linked(time: Duration, id: Int, dependencies: [Int])
    /// An operation changed state; `from` is nil for the first state.
    case state(time: Duration, id: Int, from: Lifecycle?, to: Lifecycle, outcome: Outcome?, message: String?)
    /// An operation's progress changed; `nextAttemptAt` is set while it waits out a retry
    /// back-off (the clock time its next attempt starts), and `retryError` on the change that
    /// counts a new retry (the failed attempt's error: its retry log's newest entry).
    case progress(
        time: Duration, id: Int, completedBytes: Int64, totalBytes: Int64, bytesPerSecond: Double, retries: Int,
        nextAttemptAt: Duration? = nil, retryError: String? = nil)
    /// The queue's settings changed (or an operator acted on it).
    case queue(time: Duration, isSuspended: Bool, maxConcurrentOperationCount: Int, counts: StateCounts, reason: String)

    /// When it happened, on the monitor's clock.
    public var time: Duration {
        switch self {
        case .added(let time, _, _, _, _, _, _), .linked(let time, _, _), .state(let time, _, _, _, _, _),
            .progress(let time, _, _, _, _, _, _, _), .queue(let time, _, _, _, _):
            time
        }
    }
}
