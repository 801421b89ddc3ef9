import Foundation
import OpsKit
import Synchronization
import DequeModule

/// Watches an `ObservableOperationQueue` and its operations through OpsKit's KVO layer and keeps
/// a thread-safe store the dashboard reads as immutable `QueueSnapshot`s.
///
/// Each operation is subscribed to when it is added and unsubscribed when it finishes. Every
/// change is O(1) under one lock; nothing here calls into the UI.
public final class QueueMonitor: Sendable {
    // Locking: `store` (Mutex) holds all monitor data; `subscriptions` (Mutex) holds the KVO
    // tokens. Neither lock is held while calling out to OpsKit or user code.
    private struct Subscriptions {
        var queueTokens: [NSKeyValueObservation] = []
        var byOperation: [ObjectIdentifier: Tracked] = [:]
        /// Dependents waiting for a dependency that was not tracked yet.
        var pendingLinks: [ObjectIdentifier: [Int]] = [:]
        /// Ids of recently finished operations, so a dependent added later still links to them.
        /// Bounded (oldest dropped first); weak, so a reused address never matches.
        var finished: [ObjectIdentifier: FinishedOperation] = [:]
        var finishedOrder = Deque<ObjectIdentifier>()
        var stopped = false

        /// The id of `op` if it is tracked or finished recently.
        func id(of op: Operation) -> Int? {
            let key = ObjectIdentifier(op)
            if let tracked = byOperation[key] { return tracked.id }
            if let done = finished[key], done.operation === op { return done.id }
            return nil
        }
    }

    private struct FinishedOperation {
        weak var operation: Operation?
        var id: Int
    }

    private struct Tracked {
        var id: Int
        var operation: Operation
        var tokens: [NSKeyValueObservation]
    }

    private let queue: ObservableOperationQueue
    private let clock: any SimulationClock
    private let limits: MonitorStore.Limits
    private let origin: Duration
    private let store: Mutex<MonitorStore>
    private let subscriptions = Mutex(Subscriptions())

    /// Starts watching `queue`, timing everything on `clock`. With `recordEvents`, every change is
    /// also kept for `drainEvents()` (headless mode).
    public init(
        queue: ObservableOperationQueue, clock: any SimulationClock,
        limits: MonitorStore.Limits = .init(), recordEvents: Bool = false
    ) {
        self.queue = queue
        self.clock = clock
        self.limits = limits
        self.origin = clock.now
        var initial = MonitorStore(limits: limits)
        initial.recordsEvents = recordEvents
        initial.isSuspended = queue.isSuspended
        initial.maxConcurrentOperationCount = queue.maxConcurrentOperationCount
        self.store = Mutex(initial)
        subscribeToQueue()
        for op in queue.allOperations { track(op) }
    }

    /// Time on the monitor's clock since it started.
    public var now: Duration { clock.now - origin }

    /// The current picture of the queue.
    public func snapshot() -> QueueSnapshot {
        let time = now
        return store.withLock { $0.snapshot(time: time) }
    }

    /// A new picture if anything changed since `version`, else nil (so an idle dashboard does no work).
    public func snapshot(ifChangedSince version: UInt64) -> QueueSnapshot? {
        let time = now
        return store.withLock { $0.version == version ? nil : $0.snapshot(time: time) }
    }

    /// Events recorded since the last call (only with `recordEvents`).
    public func drainEvents() -> [MonitorEvent] {
        store.withLock { $0.drainEvents() }
    }

    /// Operations currently subscribed to (unfinished ones); 0 once everything finished.
    public var subscribedOperationCount: Int {
        subscriptions.withLock { $0.byOperation.count }
    }

    /// Stops watching: every KVO token is invalidated.
    public func stop() {
        let tokens = subscriptions.withLock { state -> [NSKeyValueObservation] in
            state.stopped = true
            defer {
                state.queueTokens = []
                state.byOperation = [:]
            }
            return state.queueTokens + state.byOperation.values.flatMap(\.tokens)
        }
        for token in tokens { token.invalidate() }
    }

    deinit { stop() }

    // MARK: Operator actions

    /// Cancels the operation with monitor id `id`, if it is still tracked and unfinished.
    public func cancel(id: Int) {
        let target = subscriptions.withLock { state in state.byOperation.values.first { $0.id == id }?.operation }
        guard let target else { return }
        record(reason: "operator cancelled #\(id)")
        if let async = target as? AsyncOperation {
            async.cancel(reason: "cancelled by operator")
        } else {
            target.cancel()
        }
    }

    /// Cancels every unfinished operation.
    public func cancelAll() {
        record(reason: "operator cancelled all operations")
        for op in queue.allOperations {
            if let async = op as? AsyncOperation { async.cancel(reason: "cancelled by operator") } else { op.cancel() }
        }
    }

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

    /// Records a queue setting unless the store already has it.
    private func recordQueue(isSuspended: Bool? = nil, maxConcurrent: Int? = nil) {
        let time = now
        store.withLock { store in
            if let isSuspended, store.isSuspended != isSuspended {
                store.queueChanged(isSuspended: isSuspended, reason: isSuspended ? "queue paused" : "queue resumed", time: time)
            }
            if let maxConcurrent, store.maxConcurrentOperationCount != maxConcurrent {
                store.queueChanged(maxConcurrent: maxConcurrent, reason: "concurrency limit \(maxConcurrent)", time: time)
            }
        }
    }

    private func record(reason: String) {
        let time = now
        store.withLock { $0.queueChanged(reason: reason, time: time) }
    }

    // MARK: Subscriptions

    private func subscribeToQueue() {
        let added = queue.observe(\.allOperations, options: [.new]) { [weak self] _, change in
            guard let self, change.kind == .insertion, let ops = change.newValue else { return }
            for op in ops { self.track(op) }
        }
        let removed = queue.observe(\.allOperations, options: [.old]) { [weak self] _, change in
            guard let self, change.kind == .removal, let ops = change.oldValue else { return }
            for op in ops where !(op is AsyncOperation) { self.foreignOperationFinished(op) }
        }
        let suspended = queue.observe(\.isSuspended, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(isSuspended: value)
        }
        let limit = queue.observe(\.maxConcurrentOperationCount, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(maxConcurrent: value)
        }
        subscriptions.withLock { $0.queueTokens = [added, removed, suspended, limit] }
    }

    private func track(_ op: Operation) {
        let key = ObjectIdentifier(op)
        // Resolve dependency ids of already-tracked operations.
        let known = subscriptions.withLock { state -> [Int]? in
            guard !state.stopped, state.byOperation[key] == nil else { return nil }
            return op.dependencies.compactMap { state.id(of: $0) }
        }
        guard let dependencyIDs = known else { return }
        let work = op as? SimulatedWorkOperation
        let kind: OperationKind = work.map { OperationKind(rawValue: $0.kind.rawValue) ?? .other } ?? .other
        let lifecycle = currentLifecycle(op)
        let time = now
        let id = store.withLock {
            $0.add(name: op.name, kind: kind, lifecycle: lifecycle, totalBytes: work?.totalBytes ?? 0,
                   dependencies: dependencyIDs, time: time)
        }
        let tokens = subscribe(op, id: id)
        let links = subscriptions.withLock { state -> [Int] in
            state.byOperation[key] = Tracked(id: id, operation: op, tokens: tokens)
            for dependency in op.dependencies where !dependency.isFinished {
                let dependencyKey = ObjectIdentifier(dependency)
                if state.id(of: dependency) == nil {
                    state.pendingLinks[dependencyKey, default: []].append(id)
                }
            }
            return state.pendingLinks.removeValue(forKey: key) ?? []
        }
        if !links.isEmpty {
            store.withLock { store in for dependent in links { store.link(dependent, dependsOn: id) } }
        }
        // The operation may have moved on while we subscribed: catch up.
        refresh(op, id: id)
    }

    private func subscribe(_ op: Operation, id: Int) -> [NSKeyValueObservation] {
        guard let async = op as? AsyncOperation else { return [] }
        var tokens = [
            async.observe(\.isExecuting, options: [.new]) { [weak self] op, change in
                if change.newValue == true { self?.moved(id, to: .executing) }
            },
            async.observe(\.isFinished, options: [.new]) { [weak self] op, change in
                if change.newValue == true { self?.finished(op, id: id) }
            },
            async.observe(\.isReady, options: [.new]) { [weak self] op, _ in
                self?.refresh(op, id: id)
            },
            async.observe(\.isCancelled, options: [.new]) { [weak self] op, _ in
                self?.refresh(op, id: id)
            },
        ]
        if let work = op as? SimulatedWorkOperation {
            tokens.append(work.observe(\.progress, options: [.new]) { [weak self] op, change in
                guard let self, let progress = change.newValue else { return }
                self.progressed(op, id: id, progress)
            })
        }
        return tokens
    }

    private func currentLifecycle(_ op: Operation) -> Lifecycle {
        if op.isFinished { return .finished }
        if op.isExecuting { return .executing }
        if !op.isCancelled, op.dependencies.contains(where: { !$0.isFinished }) { return .waiting }
        return .ready
    }

    private func refresh(_ op: Operation, id: Int) {
        let lifecycle = currentLifecycle(op)
        if lifecycle == .finished {
            finished(op, id: id)
        } else {
            moved(id, to: lifecycle)
        }
    }

    private func moved(_ id: Int, to lifecycle: Lifecycle) {
        let time = now
        store.withLock { store in
            // Never back from executing to ready/waiting.
            if let current = store.operation(id: id)?.lifecycle, current == .executing, lifecycle != .finished { return }
            store.transition(id, to: lifecycle, time: time)
        }
    }

    private func progressed(_ op: SimulatedWorkOperation, id: Int, _ progress: TransferProgress) {
        let time = now
        let needsLog = store.withLock { $0.operation(id: id)?.retries != progress.retries }
        let log = needsLog ? op.retryLog : nil
        store.withLock {
            $0.progress(id, completedBytes: progress.completedBytes, bytesPerSecond: progress.bytesPerSecond,
                        retries: progress.retries, retryLog: log, time: time)
        }
    }

    private func finished(_ op: Operation, id: Int) {
        let (outcome, message) = Self.outcome(of: op)
        let time = now
        if let work = op as? SimulatedWorkOperation {
            let progress = work.progress
            let log = work.retryLog
            store.withLock {
                $0.progress(id, completedBytes: progress.completedBytes, bytesPerSecond: 0,
                            retries: progress.retries, retryLog: log, time: time)
            }
        }
        store.withLock { $0.transition(id, to: .finished, outcome: outcome, message: message, time: time) }
        untrack(op)
    }

    private func foreignOperationFinished(_ op: Operation) {
        guard let id = subscriptions.withLock({ $0.byOperation[ObjectIdentifier(op)]?.id }) else { return }
        finished(op, id: id)
    }

    private func untrack(_ op: Operation) {
        let bound = max(1, limits.finishedOperations)
        let tokens = subscriptions.withLock { state -> [NSKeyValueObservation] in
            let key = ObjectIdentifier(op)
            guard let tracked = state.byOperation.removeValue(forKey: key) else { return [] }
            state.finished[key] = FinishedOperation(operation: op, id: tracked.id)
            state.finishedOrder.append(key)
            while state.finishedOrder.count > bound, let oldest = state.finishedOrder.popFirst() {
                state.finished[oldest] = nil
            }
            return tracked.tokens
        }
        for token in tokens { token.invalidate() }
    }

    static func outcome(of op: Operation) -> (Outcome, String?) {
        if let async = op as? AsyncOperation, let outcome = async.outcome {
            switch outcome {
            case .succeeded: return (.succeeded, nil)
            case .failed(let error): return (.failed, "\(error)")
            case .cancelled(let reason): return (.cancelled, reason)
            }
        }
        return op.isCancelled ? (.cancelled, nil) : (.succeeded, nil)
    }
}
