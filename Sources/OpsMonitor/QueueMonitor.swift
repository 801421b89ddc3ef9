import Dispatch
import DequeModule
import Foundation
import OpsKit
import Synchronization

/// Watches an `ObservableOperationQueue` and its operations through OpsKit's KVO layer and keeps
/// a thread-safe store the dashboard reads as immutable `QueueSnapshot`s.
///
/// Watching costs the queue almost nothing: the monitor holds a handful of queue-level
/// subscriptions (`operations`, `executingOperations`, settings), subscribes to an operation
/// only while it waits for dependencies (readiness) or runs and reports progress
/// (`ProgressReportingOperation`), and
/// on a worker thread only stamps each change with the clock and appends it to an inbox. The
/// store applies the inbox in order, in batches, on a background applier or whenever someone
/// reads, so every read sees every change made before it.
public final class QueueMonitor: Sendable {
    // Locking: `state` (Mutex) holds the store and the bookkeeping; `recorder.inbox` (spin lock) holds
    // the changes not applied yet. Lock order: state, then inbox. KVO handlers take only `inbox`.
    // Neither lock is held while calling out to user code; tokens are invalidated after unlocking.
    private struct State {
        var store: MonitorStore
        var tracked: [ObjectIdentifier: Tracked] = [:]
        /// Dependents waiting for a dependency that was not tracked yet.
        var pendingLinks: [ObjectIdentifier: [Int]] = [:]
        /// Recently finished operations, so a dependent added later still links to them.
        /// Bounded (oldest dropped first); weak, so a reused address never matches.
        var finished: [ObjectIdentifier: FinishedOperation] = [:]
        var finishedOrder = Deque<ObjectIdentifier>()
        /// Changes taken from the inbox and not applied yet, oldest first.
        var backlog = ChangeChunks()
        /// Rates of operations that report progress without one.
        var rates = RateEstimator()

        /// The id of `op` if it is tracked or finished recently.
        func id(of op: Operation) -> Int? {
            let key = ObjectIdentifier(op)
            if let tracked = tracked[key] { return tracked.id }
            guard let done = finished[key] else { return nil }
            if let serial = done.serial {
                return (op as? AsyncOperation)?.serialNumber == serial ? done.id : nil
            }
            return done.operation === op ? done.id : nil
        }
    }

    /// A finished operation, recognised by its serial number (`AsyncOperation`) or a weak
    /// reference (others), so a reused address never matches; a serial costs no allocation.
    private struct FinishedOperation {
        var id: Int
        var serial: UInt64?
        weak var operation: Operation?

        init(_ op: Operation, id: Int) {
            self.id = id
            if let async = op as? AsyncOperation {
                serial = async.serialNumber
            } else {
                operation = op
            }
        }
    }

    private struct Tracked {
        var id: Int
        var operation: Operation
        var tokens: OperationTokens
    }

    /// Changes the background applier applies per hold of the state lock.
    private static let applySlice = 256

    private let queue: ObservableOperationQueue
    private let limits: MonitorStore.Limits
    private let state: Mutex<State>
    /// Records changes on worker threads (the KVO handlers' side).
    private let recorder: MonitorRecorder
    private let queueTokens = Mutex<[NSKeyValueObservation]>([])

    /// Starts watching `queue`, timing everything on `clock`. With `recordEvents`, every change is
    /// also kept for `drainEvents()` (headless mode).
    public init(
        queue: ObservableOperationQueue, clock: any SimulationClock,
        limits: MonitorStore.Limits = .init(), recordEvents: Bool = false
    ) {
        self.queue = queue
        self.limits = limits
        self.recorder = MonitorRecorder(clock: clock)
        var initial = MonitorStore(limits: limits)
        initial.recordsEvents = recordEvents
        initial.isSuspended = queue.isSuspended
        initial.maxConcurrentOperationCount = queue.maxConcurrentOperationCount
        self.state = Mutex(State(store: initial))
        recorder.applyWith { [weak self] in self?.applyPending() }
        // Holding the inbox while subscribing and reading the queue puts every change a worker
        // makes meanwhile after the operation's `added` entry.
        recorder.inbox.withLock { box in
            subscribeToQueue()
            recorder.recordCurrentOperations(of: queue, into: &box)
        }
        applyPending()
    }

    /// Time on the monitor's clock since it started.
    public var now: Duration { recorder.now }

    /// The current picture of the queue.
    public func snapshot() -> QueueSnapshot {
        withAppliedState { state, time in state.store.snapshot(time: time) }
    }

    /// A new picture if anything changed since `version`, else nil (so an idle dashboard does no work).
    public func snapshot(ifChangedSince version: UInt64) -> QueueSnapshot? {
        withAppliedState { state, time in
            state.store.version == version ? nil : state.store.snapshot(time: time)
        }
    }

    /// Events recorded since the last call (only with `recordEvents`).
    public func drainEvents() -> [MonitorEvent] {
        withAppliedState { state, _ in state.store.drainEvents() }
    }

    /// Turns event recording on or off (events not drained are dropped when it goes off) and
    /// returns the picture at that moment: with recording on, the events drained later are
    /// exactly the changes after it. A publisher records only while someone watches.
    @discardableResult
    public func setRecordingEvents(_ on: Bool) -> QueueSnapshot {
        withAppliedState { state, time in
            if !on { _ = state.store.drainEvents() }
            state.store.recordsEvents = on
            return state.store.snapshot(time: time)
        }
    }

    /// Whether changes are recorded for `drainEvents()`.
    public var isRecordingEvents: Bool {
        state.withLock { $0.store.recordsEvents }
    }

    /// Starts collecting a `MonitorTally` for metrics: finish timings and transferred bytes from
    /// now on (counts are always current).
    public func startTally() {
        withAppliedState { state, _ in state.store.startTally() }
    }

    /// Everything seen so far applied, the tally with the current counts; the finish timings
    /// are handed over once. Nil before `startTally()`.
    public func takeTally() -> MonitorTally? {
        withAppliedState { state, _ in state.store.takeTally() }
    }

    /// Events recorded since the last drain (only with `recordEvents`) and the picture right
    /// after the last of them, taken together: the snapshot is consistent with the events.
    public func drainEventsAndSnapshot() -> (events: [MonitorEvent], snapshot: QueueSnapshot) {
        withAppliedState { state, time in (state.store.drainEvents(), state.store.snapshot(time: time)) }
    }

    /// Changes recorded and not applied yet (a look that applies nothing; for tests).
    var pendingChangeCount: Int {
        state.withLock { state in state.backlog.count + recorder.inbox.withLock { $0.changes.count } }
    }

    /// Operations currently tracked and unfinished; 0 once everything finished.
    public var subscribedOperationCount: Int {
        withAppliedState { state, _ in state.tracked.count }
    }

    /// Stops watching: what was seen so far is applied (the store stays readable), every KVO
    /// token is invalidated and later changes are ignored.
    public func stop() {
        var tokens = queueTokens.withLock { tokens in
            defer { tokens = [] }
            return tokens
        }
        state.withLock { state in
            takeInbox(into: &state)
            while let change = state.backlog.popFirst() { apply(change, to: &state, releasing: &tokens) }
            let dropped = recorder.inbox.withLock { box in
                box.stopped = true
                defer { box.changes = ChangeChunks() }
                return box.changes
            }
            for change in dropped.all {
                if case .added(_, _, _, let held) = change { tokens += held.all }
                if case .started(_, _, let progress?) = change { tokens.append(progress) }
            }
            for tracked in state.tracked.values { tokens += tracked.tokens.all }
            state.tracked = [:]
        }
        for token in tokens { token.invalidate() }
    }

    deinit {
        stop()
        recorder.stopApplier()
    }

    // MARK: Operator actions

    /// Cancels the operation with monitor id `id`, if it is still tracked and unfinished.
    public func cancel(id: Int) {
        let target = withAppliedState { state, time -> Operation? in
            guard let target = state.tracked.values.first(where: { $0.id == id })?.operation else { return nil }
            state.store.queueChanged(reason: "operator cancelled #\(id)", time: time)
            return target
        }
        guard let target else { return }
        if let async = target as? AsyncOperation {
            async.cancel(reason: "cancelled by operator")
        } else {
            target.cancel()
        }
    }

    /// Cancels every unfinished operation.
    public func cancelAll() {
        withAppliedState { state, time in
            state.store.queueChanged(reason: "operator cancelled all operations", time: time)
        }
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

    /// Records a queue setting unless the store already has it (after everything seen before).
    private func recordQueue(isSuspended: Bool? = nil, maxConcurrent: Int? = nil) {
        withAppliedState { state, time in
            if let isSuspended, state.store.isSuspended != isSuspended {
                state.store.queueChanged(
                    isSuspended: isSuspended, reason: isSuspended ? "queue paused" : "queue resumed", time: time)
            }
            if let maxConcurrent, state.store.maxConcurrentOperationCount != maxConcurrent {
                state.store.queueChanged(
                    maxConcurrent: maxConcurrent, reason: "concurrency limit \(maxConcurrent)", time: time)
            }
        }
    }

    // MARK: Subscriptions

    /// Operations through the recorder (worker threads: stamp and append only); settings here.
    private func subscribeToQueue() {
        let operations = recorder.watchOperations(of: queue)
        let suspended = queue.observe(\.isSuspended, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(isSuspended: value)
        }
        let limit = queue.observe(\.maxConcurrentOperationCount, options: [.new]) { [weak self] _, change in
            guard let self, let value = change.newValue else { return }
            self.recordQueue(maxConcurrent: value)
        }
        queueTokens.withLock { $0 = operations + [suspended, limit] }
    }

    // MARK: Applying (under the state lock, in recording order)

    /// The background applier's run: everything pending, a slice at a time, so a reader never
    /// waits behind more than one slice of a low-priority thread's work.
    private func applyPending() {
        var more = true
        while more {
            var released: [NSKeyValueObservation] = []
            more = state.withLock { state -> Bool in
                // The inbox is taken only once the backlog is done: every take contends with
                // the recording threads for the inbox lock (and a contended lock sleeps in the
                // kernel). It ends only after a take found nothing, which re-arms scheduling.
                if state.backlog.isEmpty { takeInbox(into: &state) }
                guard !state.backlog.isEmpty else { return false }
                var applied = 0
                while applied < Self.applySlice, let change = state.backlog.popFirst() {
                    apply(change, to: &state, releasing: &released)
                    applied += 1
                }
                return true
            }
            for token in released { token.invalidate() }
        }
    }

    /// Moves the inbox to the end of the backlog (under the state lock, so order is kept).
    private func takeInbox(into state: inout State) {
        var changes = recorder.inbox.withLock { box in
            box.applyScheduled = false
            defer { box.changes = ChangeChunks() }
            return box.changes
        }
        guard !changes.isEmpty else { return }
        if changes.count > 64 { state.tracked.reserveCapacity(state.tracked.count + changes.count / 2) }
        state.backlog.append(takingAllOf: &changes)
    }

    /// Runs `body` on the state with every recorded change applied, at the current time.
    @discardableResult
    private func withAppliedState<T>(_ body: (inout State, Duration) -> T) -> T {
        var released: [NSKeyValueObservation] = []
        let result = state.withLock { state -> T in
            takeInbox(into: &state)
            while let change = state.backlog.popFirst() { apply(change, to: &state, releasing: &released) }
            return body(&state, now)
        }
        for token in released { token.invalidate() }
        return result
    }

    private func apply(
        _ change: PendingChange, to state: inout State, releasing released: inout [NSKeyValueObservation]
    ) {
        switch change {
        case .added(let op, let lifecycle, let time, let tokens):
            track(op, lifecycle, time: time, tokens: tokens, in: &state, releasing: &released)
        case .started(let op, let time, let progress):
            let key = ObjectIdentifier(op)
            guard let tracked = state.tracked[key] else {
                if let progress { released.append(progress) }
                return
            }
            if let progress {
                if let previous = tracked.tokens.progress { released.append(previous) }
                state.tracked[key]?.tokens.progress = progress
            }
            state.store.transition(tracked.id, to: .executing, time: time)
        case .ready(let op, let time):
            let key = ObjectIdentifier(op)
            guard let tracked = state.tracked[key] else { return }
            if state.store.operation(id: tracked.id)?.lifecycle == .waiting {
                state.store.transition(tracked.id, to: .ready, time: time)
            }
            if let token = tracked.tokens.ready {
                released.append(token)
                state.tracked[key]?.tokens.ready = nil
            }
        case .progressed(let op, let progress, let time):
            guard let id = state.tracked[ObjectIdentifier(op)]?.id else { return }
            applyProgress(progress, of: op, id: id, time: time, in: &state)
        case .finished(let op, let time):
            finish(op, time: time, in: &state, releasing: &released)
        }
    }

    private func track(
        _ op: Operation, _ lifecycle: Lifecycle, time: Duration, tokens: OperationTokens,
        in state: inout State, releasing released: inout [NSKeyValueObservation]
    ) {
        let key = ObjectIdentifier(op)
        guard state.tracked[key] == nil else {
            released += tokens.all
            return
        }
        let dependencies = op.currentDependencies
        let reporter = op.progressReporter
        let report = reporter?.reportedProgress
        let id = state.store.add(
            name: op.name, kind: reporter?.kind ?? .other, unit: report?.unit ?? .bytes, lifecycle: lifecycle,
            totalBytes: report?.totalUnitCount ?? 0, dependencies: dependencies.compactMap { state.id(of: $0) },
            time: time)
        state.tracked[key] = Tracked(id: id, operation: op, tokens: tokens)
        for dependency in dependencies where state.id(of: dependency) == nil && !dependency.isFinished {
            state.pendingLinks[ObjectIdentifier(dependency), default: []].append(id)
        }
        if let dependents = state.pendingLinks.removeValue(forKey: key) {
            for dependent in dependents { state.store.link(dependent, dependsOn: id) }
        }
        if lifecycle == .executing, let report {
            applyProgress(report, of: op, id: id, time: time, in: &state)
        }
        if lifecycle == .finished { finish(op, time: time, in: &state, releasing: &released) }
    }

    private func finish(
        _ op: Operation, time: Duration, in state: inout State, releasing released: inout [NSKeyValueObservation]
    ) {
        let key = ObjectIdentifier(op)
        guard let tracked = state.tracked.removeValue(forKey: key) else { return }
        released += tracked.tokens.all
        if let reporter = op.progressReporter {
            let progress = reporter.reportedProgress
            state.rates.forget(tracked.id)
            state.store.progress(
                tracked.id, completedBytes: progress.completedUnitCount, totalBytes: progress.totalUnitCount,
                bytesPerSecond: 0, retries: progress.retries, retryLog: reporter.retryLog, time: time)
        }
        let (outcome, message) = Self.outcome(of: op)
        state.store.transition(tracked.id, to: .finished, outcome: outcome, message: message, time: time)
        state.finished[key] = FinishedOperation(op, id: tracked.id)
        state.finishedOrder.append(key)
        let bound = max(1, limits.finishedOperations)
        while state.finishedOrder.count > bound, let oldest = state.finishedOrder.popFirst() {
            state.finished[oldest] = nil
        }
    }

    /// Applies a progress report of `op` (id `id`) made at `time`: the rate as reported or
    /// derived, the retry log as it was at this change, and when a retry wait ends.
    private func applyProgress(
        _ progress: OperationProgress, of op: Operation, id: Int, time: Duration, in state: inout State
    ) {
        guard let row = state.store.operation(id: id) else { return }
        let nextAttemptAt = progress.retryDelay.map { time + $0 }
        let rate: Double
        if let reported = progress.unitsPerSecond {
            rate = reported
        } else if row.lifecycle == .executing {
            rate = state.rates.rate(
                id: id, completed: progress.completedUnitCount, time: time,
                start: (row.startedAt ?? time, row.completedBytes))
        } else {
            rate = 0
        }
        if let nextAttemptAt {
            state.rates.restart(id, at: nextAttemptAt, completed: progress.completedUnitCount)
        }
        // One log entry per failed attempt retried so far.
        let log =
            row.retries != progress.retries
            ? op.progressReporter.map { Array($0.retryLog.prefix(progress.retries)) } : nil
        state.store.progress(
            id, completedBytes: progress.completedUnitCount, totalBytes: progress.totalUnitCount,
            bytesPerSecond: rate, retries: progress.retries, retryLog: log, nextAttemptAt: nextAttemptAt, time: time)
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
