import Foundation
import Synchronization

/// Told directly, on the thread that makes the change, when an `ObservableOperationQueue` takes
/// operations, starts one and finishes one: the same moments its `operations` insertions,
/// `executingOperations` insertions and `operations` removals are published, at the cost of a
/// call instead of a key-value notification each (for monitors that watch every operation).
///
/// Calls come in the same order as those notifications, just before each of them; a listener
/// must return quickly and must not call back into the queue.
public protocol OperationLifecycleListener: AnyObject, Sendable {
    /// The queue took `operations` (one batch, before any of them can start).
    func operationsAdded(_ operations: [Operation])
    /// An `AsyncOperation` of the queue started executing (before Foundation learns of it).
    func operationStarted(_ operation: Operation)
    /// An operation of the queue finished and left its books.
    func operationFinished(_ operation: Operation)
}

extension ObservableOperationQueue {
    /// Tells `listener` of every operation this queue takes, starts and finishes from now on,
    /// until `removeLifecycleListener(_:)` (the queue holds it strongly until then).
    public func addLifecycleListener(_ listener: any OperationLifecycleListener) {
        lifecycleListeners.add(listener)
    }

    /// Stops telling `listener` (does nothing if it is not registered).
    public func removeLifecycleListener(_ listener: any OperationLifecycleListener) {
        lifecycleListeners.remove(listener)
    }
}

/// A queue's lifecycle listeners. Locking: the list is behind a spin lock (every worker thread
/// reads it at each start and finish: with a `Mutex`, a reader preempted while holding it sent
/// the others into the kernel's priority-inheritance futex path); `count` (atomic) lets the
/// common case, no listener, skip the lock.
final class OperationLifecycleListeners: Sendable {
    private let list = SpinLocked<[any OperationLifecycleListener]>([])
    private let count = Atomic<Int>(0)

    func add(_ listener: any OperationLifecycleListener) {
        list.withLock { list in
            list.append(listener)
            count.store(list.count, ordering: .releasing)
        }
    }

    func remove(_ listener: any OperationLifecycleListener) {
        list.withLock { list in
            list.removeAll { $0 === listener }
            count.store(list.count, ordering: .releasing)
        }
    }

    /// Calls `body` with each listener (none held locked while it runs).
    @inline(__always)
    func forEach(_ body: (any OperationLifecycleListener) -> Void) {
        guard count.load(ordering: .acquiring) > 0 else { return }
        let listeners = list.withLock { $0 }
        for listener in listeners { body(listener) }
    }
}
