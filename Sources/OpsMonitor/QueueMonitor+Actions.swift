import Dispatch
import DequeModule
import Foundation
import OpsKit
import Synchronization

extension QueueMonitor {
    // MARK: Operator actions

    /// Cancels the operation with monitor id `id`, if it is still tracked and unfinished.
    public func cancel(id: Int) {
        let target = withAppliedState { state, time -> Operation? in
            guard let target = state.tracked.operation(id: id) else { return nil }
            state.store.queueChanged(reason: "operator cancelled #\(id)", time: time)
            return target
        }
        guard let target else { return }
        Self.cancelAsOperator(target)
    }

    /// The name of the operation with monitor id `id`, nil when it isn't tracked (evicted or
    /// unknown).
    package func operationName(id: Int) -> String? {
        withAppliedState { state, _ in state.store.operation(id: id)?.name }
    }

    /// The concurrency limit the monitor has seen last (below 1: none).
    public var maxConcurrentOperationCount: Int {
        withAppliedState { state, _ in state.store.maxConcurrentOperationCount }
    }

    /// Cancels every unfinished operation. The changes that follow are taken in on the calling
    /// thread as it goes, so that a dashboard's next picture has no backlog of a million
    /// cancellations to apply first.
    public func cancelAll() {
        withAppliedState { state, time in
            state.store.queueChanged(reason: "operator cancelled all operations", time: time)
        }
        for (index, op) in queue.allOperations.enumerated() {
            Self.cancelAsOperator(op)
            if index % Self.cancelSlice == Self.cancelSlice - 1 { applyPendingChanges() }
        }
        applyPendingChanges()
    }

    /// Cancels `op` as `cancel(id:)` and `cancelAll()` do, with the reason "cancelled by
    /// operator" (an `AsyncOperation`; others have no reason), and logs nothing: for work that
    /// reaches the queue after a `cancelAll()` that may have missed it.
    public static func cancelAsOperator(_ op: Operation) {
        if let async = op as? AsyncOperation { async.cancel(reason: "cancelled by operator") } else { op.cancel() }
    }

    /// Operations `cancelAll()` cancels between two applies of what they changed.
    static let cancelSlice = 10_000

    /// Pauses or resumes the queue.
    public func setSuspended(_ suspended: Bool) {
        // Recorded first: resuming starts work inside the setter, and the log must show the
        // resume before those starts. The KVO notification then finds nothing new.
        recordQueue(isSuspended: suspended)
        queue.isSuspended = suspended
    }

    /// Changes the queue's concurrency limit.
    public func setMaxConcurrentOperationCount(_ limit: Int) {
        recordQueue(maxConcurrent: max(1, limit))
        queue.maxConcurrentOperationCount = max(1, limit)
    }

    /// The log's words for a change of the concurrency limit: "concurrency limit 3→4" (a limit
    /// below 1 reads "unlimited").
    static func limitReason(from old: Int, to new: Int) -> String {
        func word(_ limit: Int) -> String { limit < 1 ? "unlimited" : "\(limit)" }
        return "concurrency limit \(word(old))→\(word(new))"
    }

    /// Records a queue setting unless the store already has it (after everything seen before).
    func recordQueue(isSuspended: Bool? = nil, maxConcurrent: Int? = nil) {
        withAppliedState { state, time in
            if let isSuspended, state.store.isSuspended != isSuspended {
                state.store.queueChanged(
                    isSuspended: isSuspended, reason: isSuspended ? "queue paused" : "queue resumed", time: time)
            }
            if let maxConcurrent, state.store.maxConcurrentOperationCount != maxConcurrent {
                state.store.queueChanged(
                    maxConcurrent: maxConcurrent,
                    reason: Self.limitReason(from: state.store.maxConcurrentOperationCount, to: maxConcurrent),
                    time: time)
            }
        }
    }

    // MARK: Subscriptions

    /// Operations through the recorder (worker threads: stamp and append only); settings here.
    func subscribeToQueue() {
        recorder.watchOperations(of: queue)
        let suspended = queue.observe(\.isSuspended, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(isSuspended: value)
        }
        let limit = queue.observe(\.maxConcurrentOperationCount, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(maxConcurrent: value)
        }
        queueTokens.withLock { $0 = [suspended, limit] }
    }
}
