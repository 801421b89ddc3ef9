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
    // by `waitUntilAllOperationsAreFinished`. Notifications go out after the lock is released.
    private struct Tracking {
        var sequence: UInt64 = 0
        var sequenceByOperation: [ObjectIdentifier: UInt64] = [:]
        var operationBySequence: [UInt64: Operation] = [:]
        var held: [ObjectIdentifier: HeldOperation] = [:]
        var barrier: Operation?
    }

    private struct HeldOperation {
        var operation: AsyncOperation
        var unfinished: Int
    }

    private let tracking = Mutex(Tracking())
    private let drained = NSCondition()
    /// Whether operations with unfinished dependencies are held outside Foundation's scheduler.
    public let holdsWaitingOperations: Bool
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

    private func add(_ ops: [Operation]) {
        let barrier = tracking.withLock { $0.barrier }
        for op in ops {
            if let barrier, barrier !== op, !barrier.isFinished { op.addDependency(barrier) }
            let (old, new) = tracking.withLock { state -> (Int, Int) in
                let old = state.operationBySequence.count
                state.sequence += 1
                state.sequenceByOperation[ObjectIdentifier(op)] = state.sequence
                state.operationBySequence[state.sequence] = op
                return (old, old + 1)
            }
            publishCount(old: old, new: new)
            #if !canImport(ObjectiveC)
            keyValueObservers.didChangeElements(
                "operations", kind: .insertion, elements: [op], indexes: IndexSet(integer: old))
            #endif
            watchForFinish(op)
            submit(op)
        }
    }

    /// Hands `op` to Foundation now, or holds it until its dependencies finish.
    private func submit(_ op: Operation) {
        guard holdsWaitingOperations, let async = op as? AsyncOperation, !async.isCancelled else {
            super.addOperation(op)
            return
        }
        let unfinished = op.dependencies.filter { !$0.isFinished }
        guard !unfinished.isEmpty, unfinished.allSatisfy({ $0 is AsyncOperation }) else {
            super.addOperation(op)
            return
        }
        let id = ObjectIdentifier(op)
        tracking.withLock { $0.held[id] = HeldOperation(operation: async, unfinished: unfinished.count) }
        for dependency in unfinished {
            (dependency as? AsyncOperation)?.onFinish { [weak self] _ in
                self?.dependencyFinished(of: id)
            }
        }
        async.onCancel { [weak self] _ in self?.release(id) }
    }

    private func dependencyFinished(of id: ObjectIdentifier) {
        let ready = tracking.withLock { state -> Bool in
            guard var held = state.held[id] else { return false }
            held.unfinished -= 1
            state.held[id] = held
            return held.unfinished <= 0
        }
        if ready { release(id) }
    }

    private func release(_ id: ObjectIdentifier) {
        guard let op = tracking.withLock({ $0.held.removeValue(forKey: id) })?.operation else { return }
        if op.isCancelled {
            // Never handed to Foundation, so start it here: it finishes at once as cancelled,
            // instead of waiting for a free slot behind running work.
            op.start()
        } else if op.dependencies.contains(where: { !$0.isFinished }) {
            submit(op)  // a dependency added while held: hold it again for that one
        } else {
            super.addOperation(op)
        }
    }

    // MARK: Finishing

    private func watchForFinish(_ op: Operation) {
        if let async = op as? AsyncOperation {
            async.onFinish { [weak self] finished in self?.operationFinished(finished) }
        } else {
            let previous = op.completionBlock
            op.completionBlock = { [weak self, unowned op] in
                previous?()
                self?.operationFinished(op)
            }
        }
    }

    private func operationFinished(_ op: Operation) {
        let change = tracking.withLock { state -> (Int, Int)? in
            guard let sequence = state.sequenceByOperation.removeValue(forKey: ObjectIdentifier(op)) else {
                return nil
            }
            let old = state.operationBySequence.count
            state.operationBySequence[sequence] = nil
            if state.barrier === op { state.barrier = nil }
            return (old, old - 1)
        }
        guard let (old, new) = change else { return }
        #if !canImport(ObjectiveC)
        keyValueObservers.didChangeElements("operations", kind: .removal, elements: [op], indexes: IndexSet())
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
        tracking.withLock { state in
            state.operationBySequence.sorted { $0.key < $1.key }.map(\.value)
        }
    }

    /// How many operations are unfinished, held ones included; the value published as
    /// `operationCount`.
    public var allOperationCount: Int {
        tracking.withLock { $0.operationBySequence.count }
    }

    /// Operations held back until their dependencies finish.
    public var heldOperationCount: Int {
        tracking.withLock { $0.held.count }
    }

    open override var isSuspended: Bool {
        get { super.isSuspended }
        set {
            let old = super.isSuspended
            guard old != newValue else { return }
            publishChange("isSuspended", old: old, new: newValue) { super.isSuspended = newValue }
        }
    }

    open override var maxConcurrentOperationCount: Int {
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
}

#if !canImport(ObjectiveC)
/// Marks `ObservableOperationQueue` and subclasses: their queue properties are observable.
public protocol ObservableQueueState: ObservableOperationQueue {}
extension ObservableOperationQueue: ObservableQueueState {}

extension ObservableQueueState {
    static var queueKeyPaths: [AnyKeyPath: String] {
        [
            \Self.operationCount: "operationCount", \Self.allOperationCount: "operationCount",
            \Self.operations: "operations", \Self.allOperations: "operations",
            \Self.isSuspended: "isSuspended",
            \Self.maxConcurrentOperationCount: "maxConcurrentOperationCount",
        ]
    }
}
#endif
