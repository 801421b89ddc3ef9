import Foundation
import OpsKit
import Synchronization

/// The worker-thread half of a `QueueMonitor`: its KVO handlers stamp each change with the clock
/// and append it to the inbox; the monitor applies the inbox to its store later.
///
/// Handlers hold the recorder strongly (it holds neither the monitor nor any token, so there is
/// no cycle): a notification costs no weak-reference load of the monitor.
final class MonitorRecorder: Sendable {
    // Locking: `inbox` (a spin lock) holds the changes not applied yet; `apply`, `applier` and
    // `backgroundApplies` (Mutexes) are set once (or by a test) and read when an apply is due. No lock is held while calling out.
    let inbox = SpinLocked(MonitorInbox())
    private let clock: any SimulationClock
    private let origin: Duration
    /// Applies the inbox (the monitor's `applyPending`, through a weak reference); set by the
    /// monitor once it is initialised.
    private let apply = OpsMutex<(@Sendable () -> Void)?>(nil)
    /// Runs `apply` in the background; its thread starts on first need.
    private let applier = OpsMutex<BackgroundApplier?>(nil)
    /// Whether `scheduleApply` may start and wake the applier (off only in tests).
    private let backgroundApplies = OpsMutex(true)

    /// Pending changes that make a background apply worthwhile.
    static let applyBatch = 512
    /// How the background applier waits for a burst to end before applying it: 20 ms at a
    /// time while 64 or more changes (about 20 operations) came in the last 20 ms or an
    /// operation added is not finished, at most a second in all.
    static let applySettling = BackgroundApplier.Settling(interval: .milliseconds(20), busy: 64, longest: .seconds(1))
    /// Pending changes at which a recording thread applies them itself (back-pressure).
    static let inboxLimit = 524_288
    /// Pending changes at which a thread adding operations applies them itself before its
    /// batch is taken further: the background applier (nice 19) gets no CPU on a busy machine,
    /// and a stream of adds would otherwise leave one `added` change per queued operation in
    /// the inbox, pages that stay resident after they are applied and freed.
    static let addedLimit = 4_096

    init(clock: any SimulationClock) {
        self.clock = clock
        self.origin = clock.now
    }

    /// Time on the monitor's clock since it started.
    var now: Duration { clock.now - origin }

    /// Sets what applies the recorded changes.
    func applyWith(_ work: @escaping @Sendable () -> Void) {
        apply.withLock { $0 = work }
    }

    /// Ends the background applier's thread.
    func stopApplier() {
        applier.withLock { $0?.stop() }
    }

    /// Starts no background applier from now on (for tests: only reads and back-pressure apply).
    func disableBackgroundApplier() {
        backgroundApplies.withLock { $0 = false }
    }

    // MARK: Subscriptions

    /// Watches the queue's operations as its lifecycle listener (added, started, finished: one
    /// call each, no notification), on every platform: Foundation's KVO on Darwin cannot observe
    /// the queue's Swift-only `operations`/`executingOperations` key paths. Starts of operations
    /// that are not `AsyncOperation`s are looked for by the monitor (`watchPlainStart`).
    func watchOperations(of queue: ObservableOperationQueue) {
        queue.addLifecycleListener(self)
    }

    /// Ends what `watchOperations(of:)` started.
    func stopWatching(_ queue: ObservableOperationQueue) {
        queue.removeLifecycleListener(self)
    }

    /// Records operations the queue just took: ready, or waiting (then watched until ready).
    fileprivate func added(_ ops: [Operation], tickets: [UInt64]) {
        let time = now
        // Built as a chunk the inbox adopts as it is (a large batch is not copied again).
        let changes = ChangeChunk(capacity: ops.count)
        for (op, ticket) in zip(ops, tickets) {
            let waiting = Self.isWaiting(op)
            let tokens = OperationTokens(ready: waiting ? watchReadiness(op, ticket: ticket) : nil)
            changes.append(.added(op, waiting ? .waiting : .ready, ticket: ticket, time: time, tokens: tokens))
        }
        record(added: changes, tickets: tickets)
    }

    /// Records what `queue` holds now, as `added` changes (for a monitor attached to a running
    /// queue). Call with the inbox held, after `watchOperations`, so that every change a worker
    /// makes meanwhile comes after the operation's `added` entry.
    func recordCurrentOperations(of queue: ObservableOperationQueue, into box: inout MonitorInbox) {
        let time = now
        for (op, ticket) in queue.allOperationsWithTickets {
            let lifecycle = Self.currentLifecycle(op)
            var tokens = OperationTokens()
            if lifecycle == .waiting { tokens.ready = watchReadiness(op, ticket: ticket) }
            if lifecycle == .executing { tokens.progress = watchProgress(op, ticket: ticket) }
            box.changes.append(.added(op, lifecycle, ticket: ticket, time: time, tokens: tokens))
            box.steps.add(ticket)
            // One found finished records no finish: it is not waited for.
            if lifecycle != .finished { box.addedCount &+= 1 }
        }
    }

    /// Watches a waiting operation until it becomes ready.
    private func watchReadiness(_ op: Operation, ticket: UInt64) -> NSKeyValueObservation? {
        guard let async = op as? AsyncOperation else { return nil }
        return async.observe(\.isReady, options: [.new]) { [self] _, change in
            guard change.newValue == true else { return }
            record(.ready(ticket: ticket, time: now))
        }
    }

    /// Watches a progress-reporting operation's progress while it runs (whether `op` reports
    /// progress is answered per class from a cache: a protocol cast per start would cost more
    /// than the rest of this handler).
    fileprivate func watchProgress(_ op: Operation, ticket: UInt64) -> NSKeyValueObservation? {
        guard let reporter = op.progressReporter else { return nil }
        return reporter.observeProgress { [self] op, progress in
            record(.progressed(progress, ticket: ticket, time: now))
        }
    }

    private static func isWaiting(_ op: Operation) -> Bool {
        let dependencies = op.currentDependencies
        guard !dependencies.isEmpty, !op.isCancelled else { return false }
        return dependencies.contains { !$0.isFinished }
    }

    private static func currentLifecycle(_ op: Operation) -> Lifecycle {
        if op.isFinished { return .finished }
        if op.isExecuting { return .executing }
        return isWaiting(op) ? .waiting : .ready
    }

    // MARK: Recording

    /// Appends `change` (the one-change path of every worker-thread notification).
    func record(_ change: consuming PendingChange) {
        let (next, taken) = inbox.withLock(moving: change) { box, change -> (NextApply, Parked?) in
            guard !box.stopped else { return (.nothing, nil) }
            let step = change.step
            if step.finishes {
                box.finishedCount &+= 1
                box.steps.finish(step.ticket)
            }
            box.changes.append(change)
            // Objects a reader parked are freed here, after the lock (`Parked`).
            let taken = box.parked.isEmpty ? nil : box.parked.take()
            return (box.next(batch: Self.applyBatch, limit: Self.inboxLimit), taken)
        }
        _ = consume taken
        perform(next)
    }

    /// Leaves `objects` in the inbox for recording threads to free; returns what was parked
    /// before and no thread took, for the caller to free.
    func park(_ objects: Parked) -> Parked {
        inbox.withLock { box in
            let stale = box.parked
            box.parked = objects
            return stale
        }
    }

    /// Appends `changes` (a batch of added operations, of `tickets`), applied on the adding thread only if
    /// `addedLimit` changes waited before it.
    private func record(added changes: ChangeChunk, tickets: [UInt64]) {
        let size = changes.count
        let next = inbox.withLock { box -> NextApply in
            guard !box.stopped else { return .nothing }
            box.addedCount &+= UInt64(size)
            box.changes.append(batch: changes)
            box.steps.add(tickets)
            return box.nextAfterAdding(size, batch: Self.applyBatch, limit: Self.addedLimit)
        }
        perform(next)
    }

    private func perform(_ next: NextApply) {
        switch next {
        case .nothing: break
        case .schedule: scheduleApply()
        case .applyHere: apply.withLock { $0 }?()
        }
    }

    private func scheduleApply() {
        guard backgroundApplies.withLock({ $0 }) else { return }
        let applier = self.applier.withLock { current -> BackgroundApplier? in
            if let current { return current }
            guard let work = apply.withLock({ $0 }) else { return nil }
            let made = BackgroundApplier(
                name: "opsmonitor.apply", settle: Self.applySettling,
                activity: { [inbox] in inbox.withLock { $0.taken &+ UInt64($0.changes.count) } },
                expectsMore: { [inbox] in inbox.withLock { $0.addedCount > $0.finishedCount } }, work: work)
            current = made
            return made
        }
        applier?.request()
    }
}

extension MonitorRecorder: TicketedLifecycleListener {
    func operationsAdded(_ operations: [Operation], tickets: [UInt64]) { added(operations, tickets: tickets) }

    func operationStarted(_ operation: Operation, ticket: UInt64) {
        if let progress = watchProgress(operation, ticket: ticket) {
            record(.startedReporting(ticket: ticket, time: now, progress: progress))
        } else {
            record(.started(ticket: ticket, time: now))
        }
    }

    func operationFinished(_ operation: Operation, ticket: UInt64) {
        record(.finished(ticket: ticket, time: now))
    }
}
