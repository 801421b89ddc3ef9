/// The attribute names `QueueTracer` sets on an operation's span (docs/EMBEDDING.md "Tracing").
enum OperationSpanAttribute {
    /// The queue's name (`QueueTracer.queueName`).
    static let queue = "opskit.queue"
    /// `Operation.name`, when set.
    static let name = "opskit.operation.name"
    /// The `OperationKind` of a `ProgressReportingOperation` (`download`, `upload`, ...).
    static let kind = "opskit.operation.kind"
    /// Seconds between the add and the start (an `AsyncOperation` that started).
    static let waitSeconds = "opskit.operation.wait_seconds"
    /// Retries a `ProgressReportingOperation` reported.
    static let retries = "opskit.operation.retries"
    /// Attempts made (retries + 1) by a `ProgressReportingOperation` that started.
    static let attempts = "opskit.operation.attempts"
    /// `succeeded`, `failed` or `cancelled`.
    static let outcome = "opskit.operation.outcome"
    /// On the `cancelled` event: the reason given to `cancel(reason:)`.
    static let cancelReason = "opskit.operation.cancel_reason"
    /// On each link: `added-from` (the context current at the add) or `dependency`.
    static let link = "opskit.link"
}
