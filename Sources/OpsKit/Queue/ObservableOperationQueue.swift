import Foundation
import Synchronization

/// An `OperationQueue` whose `operationCount`, `operations`, `isSuspended` and
/// `maxConcurrentOperationCount` are observable with `observe(\.…)` on every platform.
///
/// Every way of adding work is seen (`addOperation(_:)`, `addOperation(_ block:)`,
/// `addOperations(_:waitUntilFinished:)`, `addBarrierBlock(_:)`); blocks are wrapped in
/// `ClosureOperation` so they are observable too.
///
/// Operations whose dependencies are unfinished are held here, outside Foundation's scheduler
/// (which re-walks every not-ready operation on each pass, quadratic in a long chain), and handed
/// over when their last dependency finishes; a held operation that is cancelled is started (and
/// so finishes as cancelled) at once, without waiting for a slot. Users see no difference:
/// the published `operations` and `operationCount`, `allOperations`, `allOperationCount`,
/// `cancelAllOperations()` and `waitUntilAllOperationsAreFinished()` include held operations.
///
/// `operations` changes are published as to-many changes: `.insertion` with the added operations
/// as `newValue`, `.removal` with the finished ones as `oldValue` (removal `indexes` are nil).
open class ObservableOperationQueue: OperationQueue, KeyValueObservingPublisher, @unchecked Sendable {
    // Locking: all bookkeeping is in `tracking` (a Mutex); `drained` is a condition used only
    // by `waitUntilAllOperationsAreFinished`; `lifecycleListeners` locks its own list.
    // Notifications and listener calls go out after the lock is released.
    private struct Tracking {
        var unfinished = UnfinishedOperations()
        var held: [ObjectIdentifier: HeldOperation] = [:]
        /// The held operations waiting for each unfinished dependency: one finish listener per
        /// dependency releases them all together.
        var waitingOn: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        /// Held operations to hand over, and whether a thread is handing them over: a release
        /// that a release causes (a cancelled dependent finishing at once) is queued here for
        /// that thread, never handled recursively, so a chain a million long needs no stack.
        var toRelease: [ObjectIdentifier] = []
        var releasing = false
        var barrier: Operation?
        /// Unfinished operations that are not `AsyncOperation`s, by ticket: their finish is
        /// learnt from a wrapped `completionBlock`, which the app may replace after adding them.
        var plain: [UInt64: Operation] = [:]
        /// Runs `sweepPlainOperations()` while `plain` is not empty.
        var plainSweep: DispatchSourceTimer?
    }

    private struct HeldOperation {
        var operation: AsyncOperation
        var unfinished: Int
    }

    private let tracking = Mutex(Tracking())
    /// The (empty) indexes of an `executingOperations` change or an `operations` removal: one
    /// shared value, as an `IndexSet()` per notification allocates on Linux.
    private static let noIndexes = IndexSet()
    private let drained = NSCondition()
    /// Whether operations with unfinished dependencies are held outside Foundation's scheduler.
    public let holdsWaitingOperations: Bool
    /// Told of every add, start and finish directly (`addLifecycleListener(_:)`).
    let lifecycleListeners = OperationLifecycleListeners()
    #if !canImport(ObjectiveC)
    /// This queue's observers (Linux KVO engine).
    public let keyValueObservers = KeyValueObserverRegistry()
    #endif

    /// Creates a queue; `holdsWaitingOperations: false` hands every operation straight to
    /// Foundation (for comparison).
    public init(name: String? = nil, holdsWaitingOperations: Bool = true) {
        self.holdsWaitingOperations = holdsWaitingOperations
        super.init()
        self.name = name
    }

    // MARK: Adding work

    open override func addOperation(_ op: Operation) {
        add([op])
    }

    open override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
        add(ops)
        if wait {
            for op in ops { op.waitUntilFinished() }
        }
    }

    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        add([ClosureOperation(block)])
    }

    /// Runs `barrier` after every operation added before it, and before any added after it.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        let operation = ClosureOperation(name: "barrier", barrier)
        for pending in allOperations where !pending.isFinished {
            operation.addDependency(pending)
        }
        add([operation])
        tracking.withLock { $0.barrier = operation }
    }

    /// Records, publishes and submits `ops` as one batch: one `operationCount` and one
    /// `operations` insertion for the batch (as Foundation does on macOS), and the ready ones
    /// handed to Foundation in one `addOperations` call (one scheduling pass, not one per op).
    private func add(_ ops: [Operation]) {
        guard !ops.isEmpty else { return }
        if let barrier = tracking.withLock({ $0.barrier }) {
            for op in ops where barrier !== op && !barrier.isFinished { op.addDependency(barrier) }
        }
        var tickets: [UInt64] = []
        tickets.reserveCapacity(ops.count)
        let (old, new) = tracking.withLock { state -> (Int, Int) in
            let old = state.unfinished.count
            state.unfinished.reserve(ops.count)
            for op in ops { tickets.append(state.unfinished.append(op)) }
            return (old, state.unfinished.count)
        }
        publishCount(old: old, new: new)
        lifecycleListeners.forEach { $0.operationsAdded(ops, tickets: tickets) }
        #if !canImport(ObjectiveC)
        keyValueObservers.didChangeElements(
            "operations", kind: .insertion, elements: ops, indexes: IndexSet(integersIn: old..<new), owner: self)
        #endif
        var ready: [Operation] = []
        ready.reserveCapacity(ops.count)
        for (op, ticket) in zip(ops, tickets) {
            watchForFinish(op, ticket: ticket)
            if let op = holdIfWaiting(op) { ready.append(op) }
        }
        if ready.count == 1 {
            super.addOperation(ready[0])
        } else if !ready.isEmpty {
            super.addOperations(ready, waitUntilFinished: false)
        }
    }

    /// Hands `op` to Foundation now, or holds it until its dependencies finish.
    private func submit(_ op: Operation) {
        if let op = holdIfWaiting(op) { super.addOperation(op) }
    }

    /// Holds `op` if it waits for unfinished (OpsKit) dependencies; else returns it, to be
    /// handed to Foundation.
    private func holdIfWaiting(_ op: Operation) -> Operation? {
        guard holdsWaitingOperations, let async = op as? AsyncOperation else { return op }
        let dependencies = op.currentDependencies
        guard !dependencies.isEmpty, !async.isCancelled else { return op }
        let unfinished = dependencies.filter { !$0.isFinished }
        guard !unfinished.isEmpty, unfinished.allSatisfy({ $0 is AsyncOperation }) else {
            return op
        }
        let id = ObjectIdentifier(op)
        // The first operation held for a dependency watches it for all that come after.
        let newlyWatched = tracking.withLock { state -> [AsyncOperation] in
            state.held[id] = HeldOperation(operation: async, unfinished: unfinished.count)
            var watch: [AsyncOperation] = []
            for case let dependency as AsyncOperation in unfinished {
                let key = ObjectIdentifier(dependency)
                if state.waitingOn[key] == nil { watch.append(dependency) }
                state.waitingOn[key, default: []].append(id)
            }
            return watch
        }
        for dependency in newlyWatched {
            let key = ObjectIdentifier(dependency)
            dependency.onFinish { [weak self] _ in self?.dependencyFinished(key) }
        }
        async.onCancel { [weak self] _ in self?.release([id]) }
        return nil
    }

    /// The dependency `key` finished: every held operation it was the last unfinished one of
    /// is released, together (one scheduling pass for a thousand dependents, not a thousand).
    private func dependencyFinished(_ key: ObjectIdentifier) {
        let ready = tracking.withLock { state -> [ObjectIdentifier] in
            guard let waiting = state.waitingOn.removeValue(forKey: key) else { return [] }
            var ready: [ObjectIdentifier] = []
            for id in waiting {
                guard var held = state.held[id] else { continue }  // released by a cancel
                held.unfinished -= 1
                state.held[id] = held
                if held.unfinished <= 0 { ready.append(id) }
            }
            return ready
        }
        if !ready.isEmpty { release(ready) }
    }

    /// Hands the held operations `ids` over (those still held), and what that releases in turn.
    private func release(_ ids: [ObjectIdentifier]) {
        let drains = tracking.withLock { state -> Bool in
            state.toRelease += ids
            guard !state.releasing else { return false }
            state.releasing = true
            return true
        }
        guard drains else { return }
        while true {
            let ops = tracking.withLock { state -> [AsyncOperation]? in
                guard !state.toRelease.isEmpty else {
                    state.releasing = false
                    return nil
                }
                defer { state.toRelease = [] }
                return state.toRelease.compactMap { state.held.removeValue(forKey: $0)?.operation }
            }
            guard let ops else { return }
            handOver(ops)
        }
    }

    /// Operations no longer held: to Foundation together, or, cancelled (by the operator, or by
    /// `cancelIfAnyDependencyFailed` now that a dependency failed), finished at once without
    /// waiting for a free slot behind running work, so a failure's dependents read cancelled
    /// as soon as it happens, down the chain.
    private func handOver(_ ops: [AsyncOperation]) {
        var ready: [Operation] = []
        ready.reserveCapacity(ops.count)
        for op in ops {
            if !op.isCancelled, op.dependencyPolicy == .cancelIfAnyDependencyFailed,
                let failed = op.failedDependency()
            {
                op.cancel(reason: "dependency \(failed) did not succeed")
            }
            if op.isCancelled {
                op.start()  // never handed to Foundation: it finishes here as cancelled
            } else if op.dependencies.contains(where: { !$0.isFinished }) {
                submit(op)  // a dependency added while held: hold it again for that one
            } else {
                ready.append(op)
            }
        }
        if ready.count == 1 {
            super.addOperation(ready[0])
        } else if !ready.isEmpty {
            super.addOperations(ready, waitUntilFinished: false)
        }
    }

    // MARK: Finishing

    private func watchForFinish(_ op: Operation, ticket: UInt64) {
        if let async = op as? AsyncOperation {
            if !async.attach(to: self, ticket: ticket) {
                // Already in another queue's books (added twice): Foundation rejects it there.
                async.onFinish { [weak self] finished in self?.operationFinished(finished, ticket: ticket) }
            }
        } else {
            let previous = op.completionBlock
            op.completionBlock = { [weak self, unowned op] in
                previous?()
                self?.operationFinished(op, ticket: ticket)
            }
            watchPlainOperation(op, ticket: ticket)
        }
    }

    /// Keeps `op` (not an `AsyncOperation`) where `sweepPlainOperations()` finds it: an app
    /// that sets its `completionBlock` after adding it replaces the wrapper above, and the sweep
    /// is then how the finish is learnt (within `plainSweepInterval`).
    private func watchPlainOperation(_ op: Operation, ticket: UInt64) {
        tracking.withLock { state in
            state.plain[ticket] = op
            guard state.plainSweep == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            timer.schedule(
                deadline: .now() + Self.plainSweepInterval, repeating: Self.plainSweepInterval,
                leeway: .milliseconds(50))
            timer.setEventHandler { [weak self] in self?.sweepPlainOperations() }
            timer.resume()
            state.plainSweep = timer
        }
    }

    /// How often finished operations whose `completionBlock` was replaced are looked for.
    static let plainSweepInterval = DispatchTimeInterval.milliseconds(250)

    /// Books the finish of every plain operation that finished without its wrapped
    /// `completionBlock` telling this queue (an app replaced it after adding the operation).
    func sweepPlainOperations() {
        // `isFinished` takes the operation's own lock: read outside this queue's.
        let plain = tracking.withLock { $0.plain }
        for (ticket, op) in plain where op.isFinished { operationFinished(op, ticket: ticket) }
    }

    /// Publishes that `op` (an `AsyncOperation` of this queue) started: an insertion into
    /// `executingOperations`, before Foundation learns of the start.
    func operationStarted(_ op: AsyncOperation, ticket: UInt64) {
        lifecycleListeners.forEach { $0.operationStarted(op, ticket: ticket) }
        #if !canImport(ObjectiveC)
        keyValueObservers.didChangeElements(
            "executingOperations", kind: .insertion, elements: [op as Operation], indexes: Self.noIndexes, owner: self)
        #endif
    }

    /// Bookkeeping for a finished operation: removed from `executingOperations` (if it ran) and
    /// from `operations`, count published.
    func operationFinished(_ op: Operation, ticket: UInt64, wasExecuting: Bool = false) {
        #if !canImport(ObjectiveC)
        if wasExecuting {
            keyValueObservers.didChangeElements(
                "executingOperations", kind: .removal, elements: [op], indexes: Self.noIndexes, owner: self)
        }
        #endif
        let change = tracking.withLock { state -> (Int, Int)? in
            let old = state.unfinished.count
            guard state.unfinished.remove(ticket: ticket, op) else { return nil }
            if state.barrier === op { state.barrier = nil }
            if !state.plain.isEmpty, state.plain.removeValue(forKey: ticket) != nil, state.plain.isEmpty {
                state.plainSweep?.cancel()
                state.plainSweep = nil
            }
            return (old, old - 1)
        }
        guard let (old, new) = change else { return }
        lifecycleListeners.forEach { $0.operationFinished(op, ticket: ticket) }
        #if !canImport(ObjectiveC)
        keyValueObservers.didChangeElements(
            "operations", kind: .removal, elements: [op], indexes: Self.noIndexes, owner: self)
        #endif
        publishCount(old: old, new: new)
        if new == 0 {
            drained.lock()
            drained.broadcast()
            drained.unlock()
        }
    }

    private func publishCount(old: Int, new: Int) {
        publishChange("operationCount", old: old, new: new) {}
    }

    // MARK: What users read

    /// Unfinished operations, in the order they were added, held ones included. (Foundation's
    /// `operations`, which can't be overridden on Linux, leaves held operations out.)
    public var allOperations: [Operation] {
        tracking.withLock { $0.unfinished.all }
    }

    /// `allOperations` with each one's ticket (what lifecycle listeners are told with it).
    package var allOperationsWithTickets: [(operation: Operation, ticket: UInt64)] {
        tracking.withLock { $0.unfinished.allWithTickets }
    }

    /// How many operations are unfinished, held ones included; the value published as
    /// `operationCount`.
    public var allOperationCount: Int {
        tracking.withLock { $0.unfinished.count }
    }

    /// The `AsyncOperation`s of this queue that are executing, in the order they were added.
    ///
    /// Observable on Linux as a to-many property: `.insertion` with the operation as `newValue`
    /// when one starts (before Foundation learns of it), `.removal` with it as `oldValue` when it
    /// finishes; `indexes` are empty. One subscription here replaces one per operation, which is
    /// how `QueueMonitor` watches 100,000s of operations at almost no cost.
    public var executingOperations: [Operation] {
        allOperations.filter { ($0 as? AsyncOperation)?.state == .executing }
    }

    /// Operations held back until their dependencies finish.
    public var heldOperationCount: Int {
        tracking.withLock { $0.held.count }
    }

    // `final`, like `AsyncOperation`'s state: see `ObservableKeyTable` on key paths to overrides.
    public final override var isSuspended: Bool {
        get { super.isSuspended }
        set {
            let old = super.isSuspended
            guard old != newValue else { return }
            publishChange("isSuspended", old: old, new: newValue) { super.isSuspended = newValue }
        }
    }

    public final override var maxConcurrentOperationCount: Int {
        get { super.maxConcurrentOperationCount }
        set {
            let old = super.maxConcurrentOperationCount
            guard old != newValue else { return }
            publishChange("maxConcurrentOperationCount", old: old, new: newValue) {
                super.maxConcurrentOperationCount = newValue
            }
        }
    }

    open override func cancelAllOperations() {
        // Newest first: dependents are cancelled before what they wait on finishes and
        // releases them, so no released dependent starts its work in between.
        for op in allOperations.reversed() { op.cancel() }
        super.cancelAllOperations()
    }

    open override func waitUntilAllOperationsAreFinished() {
        drained.lock()
        while allOperationCount > 0 { drained.wait() }
        drained.unlock()
        super.waitUntilAllOperationsAreFinished()
    }

    deinit {
        tracking.withLock { $0.plainSweep?.cancel() }
    }
}
