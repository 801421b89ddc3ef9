import Foundation
import Synchronization

/// The base class for asynchronous work on an `OperationQueue`, with the state machine done right.
///
/// Subclasses override `execute()` (not `main()`, which is unavailable: overriding it is a
/// compile error) and call `finish()` or `finish(error:)` when the work is done, from any thread. The operation guarantees:
/// - states move ready → executing → finished, or ready → finished when cancelled before start;
///   anything else is reported and ignored;
/// - it never finishes without having been started by its queue;
/// - `finish` is idempotent: a late callback after cancel changes nothing;
/// - cancelling while executing calls `operationDidCancel()` and finishes promptly, once;
/// - observers (`observe(\.isFinished …)`) and the real `OperationQueue` see every change.
open class AsyncOperation: Operation, KeyValueObservingPublisher, @unchecked Sendable {
    // Locking: every mutable field lives in `locked` (a Mutex); notifications go out after it
    // is released. `transitioningTo` claims a transition so concurrent ones are serialized.
    /// Internal (not private) only so that `AsyncOperation+*.swift` reach it.
    struct Locked {
        var state: OperationState = .ready
        /// The state a transition in progress moves to (claimed, not yet applied); nil when none is.
        var transitioningTo: OperationState?
        var cancelled = false
        var outcome: OperationOutcome?
        var cancellationReason: String?
        var dependencyPolicy: DependencyFailurePolicy = .runAnyway
        var finishListeners: [@Sendable (AsyncOperation) -> Void] = []
        var cancelListeners: [@Sendable (AsyncOperation) -> Void] = []
        /// Finish listeners registered on dependencies that have not fired yet.
        var watchedDependencies = 0
        /// The `ObservableOperationQueue` this operation was added to, until it finishes; told
        /// of the finish without a per-operation closure (100,000s of operations go through a
        /// queue). Strong, and let go of at the finish: a weak reference gives the queue a side
        /// table, and every retain and release of the queue (Foundation's own, per operation,
        /// included) then takes the slow path, ~1,000 instructions per operation drained. A
        /// queue dropped while it still holds operations that never finish (suspended) stays
        /// alive with them.
        var queue: ObservableOperationQueue?
        /// This operation's ticket in `queue`'s books.
        var queueTicket: UInt64 = 0
        /// The thread publishing a finish: the state is `.finished`, observers and the queue's
        /// books are being told, Foundation's queue is not told yet.
        var publishingFinishOn: UInt?
        /// The thread `start()` returned on, until that thread next reads `isFinished`: the
        /// read Foundation's queue makes right after `start()` (see `isFinished`).
        var startReturnedOn: UInt?
        /// Whether the cancellation of the running operation was handled (`operationDidCancel`
        /// and the finish), by `cancel(reason:)` or, for a cancel that came while `start()` was
        /// moving to executing, by `start()`.
        var runningCancelHandled = false
    }

    let locked = Mutex(Locked())
    private static let serialNumbers = Atomic<UInt64>(0)
    private let dependencyAdded = Atomic<Bool>(false)

    /// A number no other `AsyncOperation` of this process has; unlike `ObjectIdentifier`, it is
    /// never reused after the operation is deallocated (what monitors key finished work by).
    public let serialNumber = AsyncOperation.serialNumbers.wrappingAdd(1, ordering: .relaxed).newValue
    #if !canImport(ObjectiveC)
    /// This operation's observers (Linux KVO engine).
    public let keyValueObservers = KeyValueObserverRegistry()
    #endif

    public override init() {
        super.init()
    }

    #if !canImport(ObjectiveC)
    deinit {
        // swift-corelibs-foundation keeps each dependent unretained in its dependency's books
        // and reads it when the dependency finishes: a dependent freed first (cancelled and
        // released while a dependency in another queue still runs) crashed the process then.
        // Leaving those books on the way out prevents that.
        guard hasHadDependencies else { return }
        let dependencies = super.dependencies
        // Finished ones too: a dependency whose finish is still being published (its listeners
        // cancel and finish dependents at once, before Foundation hears of it) reads its books
        // after that, and a dependent freed meanwhile crashed it.
        for dependency in dependencies {
            super.removeDependency(dependency)
        }
        // Freed later, not inside Foundation's deinit: a long chain would be freed recursively.
        DependencyRelease.hold(dependencies)
    }
    #endif

    // MARK: Overrides Foundation reads

    open override var isAsynchronous: Bool { true }
    // The observable state properties are `final`: a key path to an override in a final class
    // is identified by that override's getter, so `\.isFinished` on it would match no published
    // key (see `ObservableKeyTable`). `isReady` stays open: an override of it is not published.
    public final override var isExecuting: Bool { locked.withLock { $0.state == .executing } }
    /// Whether the operation finished.
    ///
    /// On Linux, Foundation's queue reads `isFinished` on the thread that ran `start()` as soon as
    /// it returns and, if true, finishes the operation there and starts the next one, without
    /// waiting for `didChangeValue(forKey: "isFinished")`. That one read answers false while
    /// another thread is still publishing the finish, so the queue learns of it only after
    /// observers and the queue's books have (every other read sees the state as it is).
    public final override var isFinished: Bool {
        let finished = locked.withLock { state in
            if let thread = state.startReturnedOn {
                let current = currentThreadID()
                if thread == current {
                    state.startReturnedOn = nil
                    if let publisher = state.publishingFinishOn, publisher != current { return false }
                }
            }
            return state.state == .finished
        }
        didReadIsFinished(finished)
        return finished
    }

    /// Called with each answer of `isFinished`; tests override it to see Foundation's reads.
    func didReadIsFinished(_ value: Bool) {}

    public final override var isCancelled: Bool { locked.withLock { $0.cancelled } }

    /// The current state.
    public var state: OperationState { locked.withLock { $0.state } }

    /// How it ended; nil until finished.
    public var outcome: OperationOutcome? { locked.withLock { $0.outcome } }

    /// What to do when a dependency failed or was cancelled; set before the operation starts.
    public var dependencyPolicy: DependencyFailurePolicy {
        get { locked.withLock { $0.dependencyPolicy } }
        set { locked.withLock { $0.dependencyPolicy = newValue } }
    }

    // MARK: Work

    /// Does the work; override it and call `finish()` / `finish(error:)` when done.
    /// The default finishes at once, successfully.
    open func execute() {
        finish()
    }

    /// Not used: `start()` runs `execute()`. Unavailable so that a subclass written the classic
    /// way (`override func main()`) fails to compile, with a message naming `execute()`, instead
    /// of compiling into an operation whose work never runs.
    @available(
        *, unavailable,
        message:
            "AsyncOperation runs execute(), not main(): override execute() and call finish() or finish(error:) when the work is done"
    )
    public override func main() {}

    /// Called once when the operation is cancelled while executing, before it finishes as
    /// cancelled. Stop timers and callbacks here; a later `finish` is ignored.
    open func operationDidCancel() {}

    /// Called by the queue. Never call it yourself while the operation is in a queue.
    public final override func start() {
        let snapshot = locked.withLock { ($0.state, $0.cancelled, $0.dependencyPolicy) }
        guard snapshot.0 == .ready else {
            IllegalTransitionReporter.report("\(describe()): start() called in state \(snapshot.0)")
            return
        }
        if !snapshot.1, snapshot.2 == .cancelIfAnyDependencyFailed, let failed = failedDependency() {
            markCancelled(reason: "dependency \(failed) did not succeed")
        }
        if isCancelled {
            let reason = locked.withLock { $0.cancellationReason }
            transition(to: .finished, outcome: .cancelled(reason: reason))
            return
        }
        guard transition(to: .executing, outcome: nil) else { return }
        switch claimStart() {
        case .execute:
            execute()
        case .cancel(let reason):
            // Cancelled after the check above, before the state read executing: that cancel
            // saw a ready operation and left the finish to this start.
            operationDidCancel()
            finish(outcome: .cancelled(reason: reason))
        case .alreadyHandled:
            // Cancelled once the state read executing: `cancel(reason:)` called
            // `operationDidCancel()` and finishes it; the work must not start after that.
            break
        }
        let thread = currentThreadID()
        locked.withLock { $0.startReturnedOn = thread }
    }

    /// Ends the work successfully (or as cancelled, if cancelled meanwhile). Idempotent.
    public final func finish() {
        finish(outcome: nil)
    }

    /// Ends the work with `error` (nil means success). Idempotent.
    public final func finish(error: (any Error)?) {
        finish(outcome: error.map { .failed($0) })
    }

    private func finish(outcome explicit: OperationOutcome?) {
        let current = locked.withLock { ($0.state, $0.cancelled, $0.cancellationReason) }
        switch current.0 {
        case .finished:
            return  // idempotent: a late callback changes nothing
        case .ready:
            IllegalTransitionReporter.report("\(describe()): finish() before start()")
            return
        case .executing:
            let outcome = explicit ?? (current.1 ? .cancelled(reason: current.2) : .succeeded)
            transition(to: .finished, outcome: outcome)
        }
    }

    // MARK: Cancellation

    /// Cancels with a reason shown in the outcome (e.g. "by operator").
    public func cancel(reason: String?) {
        guard markCancelled(reason: reason) else { return }
        if claimRunningCancel() != nil {
            operationDidCancel()
            finish(outcome: .cancelled(reason: reason))
        }
    }

    /// What `start()` does once the state reads executing.
    private enum StartClaim {
        case execute
        /// Cancelled meanwhile, and nobody handled it: this start does (reason, possibly nil).
        case cancel(String?)
        /// Cancelled meanwhile and `cancel(reason:)` handles it (or finished already).
        case alreadyHandled
    }

    /// Decides, in one look at the state, whether `start()` runs the work or a cancel that came
    /// while it moved to executing (claiming that cancel, as `claimRunningCancel` does).
    private func claimStart() -> StartClaim {
        locked.withLock { state in
            guard state.cancelled || state.state != .executing else { return .execute }
            guard state.state == .executing, !state.runningCancelHandled else { return .alreadyHandled }
            state.runningCancelHandled = true
            return .cancel(state.cancellationReason)
        }
    }

    /// If the operation is executing and cancelled and nobody handled that yet, claims it and
    /// returns the reason (an empty reason is `.some(nil)`); else nil.
    private func claimRunningCancel() -> String?? {
        locked.withLock { state in
            guard state.state == .executing, state.cancelled, !state.runningCancelHandled else { return nil }
            state.runningCancelHandled = true
            return .some(state.cancellationReason)
        }
    }

    open override func cancel() {
        cancel(reason: nil)
    }

    /// Marks cancelled and publishes it; false if it already was.
    @discardableResult
    private func markCancelled(reason: String?) -> Bool {
        let first = locked.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            return true
        }
        guard first else { return false }
        let wasReady = super.isReady
        var applied = false
        publishChange("isCancelled", old: false, new: true) {
            applied = locked.withLock { state in
                guard !state.cancelled else { return false }
                state.cancelled = true
                state.cancellationReason = reason
                return true
            }
        }
        guard applied else { return false }
        super.cancel()  // Foundation's bookkeeping: a waiting operation becomes ready
        let listeners = locked.withLock { state in
            defer { state.cancelListeners = [] }
            return state.cancelListeners
        }
        for listener in listeners { listener(self) }
        let isReadyNow = super.isReady
        if wasReady != isReadyNow { publishReadiness(old: wasReady, new: isReadyNow) }
        return true
    }

    // MARK: Readiness

    open override var isReady: Bool { super.isReady }

    /// Whether a dependency was ever added: false means `dependencies` is empty, known from one
    /// atomic load (Foundation's `dependencies` takes a lock and copies an array); see
    /// `currentDependencies`.
    public var hasHadDependencies: Bool { dependencyAdded.load(ordering: .acquiring) }

    open override func addDependency(_ op: Operation) {
        // Two cases need no readiness check (two walks of the dependency list per add: a
        // fan-in of 20,000 took 37 s to build). A finished OpsKit dependency changes nothing
        // and needs no watching.
        let observable = op as? AsyncOperation
        if let observable, observable.state == .finished {
            dependencyAdded.store(true, ordering: .releasing)
            super.addDependency(op)
            return
        }
        // Waiting already (an OpsKit dependency is unfinished), so still waiting after: counted
        // before the add, so a dependency finishing meanwhile cannot make it look ready.
        if let observable,
            locked.withLock({ state in
                guard state.watchedDependencies > 0, !state.cancelled else { return false }
                state.watchedDependencies += 1
                return true
            })
        {
            super.addDependency(op)
            observable.onFinish { [weak self] _ in self?.dependencyFinished() }
            return
        }
        let wasReady = isReady
        dependencyAdded.store(true, ordering: .releasing)
        super.addDependency(op)
        if let observable {
            locked.withLock { $0.watchedDependencies += 1 }
            observable.onFinish { [weak self] _ in self?.dependencyFinished() }
        }
        let isReadyNow = isReady
        if wasReady != isReadyNow { publishReadiness(old: wasReady, new: isReadyNow) }
    }
}
