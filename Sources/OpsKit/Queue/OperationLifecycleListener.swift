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

/// A lifecycle listener that is also told each operation's ticket: a number the queue gives
/// every operation it takes (growing by one per operation, in the order taken, never reused)
/// and names again at its start and finish, so a listener can keep its books in a table
/// indexed by ticket instead of looking operations up by identity.
package protocol TicketedLifecycleListener: AnyObject, Sendable {
    /// The queue took `operations` (one batch, before any of them can start); `tickets[i]` is
    /// `operations[i]`'s.
    func operationsAdded(_ operations: [Operation], tickets: [UInt64])
    /// An `AsyncOperation` of the queue, ticket `ticket`, started executing.
    func operationStarted(_ operation: Operation, ticket: UInt64)
    /// An operation of the queue, ticket `ticket`, finished and left its books.
    func operationFinished(_ operation: Operation, ticket: UInt64)
}

/// A public listener, told without the tickets.
private final class UnticketedListener: TicketedLifecycleListener {
    let listener: any OperationLifecycleListener

    init(_ listener: any OperationLifecycleListener) {
        self.listener = listener
    }

    func operationsAdded(_ operations: [Operation], tickets: [UInt64]) { listener.operationsAdded(operations) }
    func operationStarted(_ operation: Operation, ticket: UInt64) { listener.operationStarted(operation) }
    func operationFinished(_ operation: Operation, ticket: UInt64) { listener.operationFinished(operation) }
}

extension ObservableOperationQueue {
    /// Tells `listener` of every operation this queue takes, starts and finishes from now on,
    /// until `removeLifecycleListener(_:)` (the queue holds it strongly until then).
    public func addLifecycleListener(_ listener: any OperationLifecycleListener) {
        lifecycleListeners.add(UnticketedListener(listener))
    }

    /// Like `addLifecycleListener(_:)`, telling `listener` each operation's ticket too.
    package func addLifecycleListener(_ listener: any TicketedLifecycleListener) {
        lifecycleListeners.add(listener)
    }

    /// Stops telling `listener` (does nothing if it is not registered).
    public func removeLifecycleListener(_ listener: any OperationLifecycleListener) {
        lifecycleListeners.remove { ($0 as? UnticketedListener)?.listener === listener }
    }

    /// Stops telling `listener` (does nothing if it is not registered).
    package func removeLifecycleListener(_ listener: any TicketedLifecycleListener) {
        lifecycleListeners.remove { $0 === listener }
    }
}

/// A queue's lifecycle listeners, read by every worker thread at each start and finish.
///
/// Locking: add and remove take `published` (a `Mutex`), make a new immutable `ListenerList`,
/// keep it in `published` and point `current` at it (releasing). A reader loads `current`
/// (acquiring) and walks that list without a lock and without retaining it: no atomic
/// read-modify-write on a line the worker threads share (a spin lock and the retain of a
/// shared array cost each start and finish two such writes bouncing between cores). A
/// published list is never freed before this object, so a reader preempted mid-walk still
/// reads valid memory; the price is that a removed listener stays referenced (never called)
/// until the queue is freed: one small list per `add`/`remove` (a monitor makes two).
final class OperationLifecycleListeners: Sendable {
    /// Every list published, the current one last (owns them: `current` is unretained).
    private let published = Mutex<[ListenerList]>([])
    /// The current list; nil when there is no listener (the common case skips everything).
    private let current = Atomic<Unmanaged<ListenerList>?>(nil)

    func add(_ listener: any TicketedLifecycleListener) {
        publish { $0 + [listener] }
    }

    /// Removes every listener `matches` picks.
    func remove(where matches: (any TicketedLifecycleListener) -> Bool) {
        publish { $0.filter { !matches($0) } }
    }

    private func publish(
        _ change: ([any TicketedLifecycleListener]) -> [any TicketedLifecycleListener]
    ) {
        published.withLock { published in
            let next = ListenerList(change(published.last?.listeners ?? []))
            published.append(next)
            current.store(next.listeners.isEmpty ? nil : Unmanaged.passUnretained(next), ordering: .releasing)
        }
    }

    /// Calls `body` with each listener (no lock held, nothing retained, while it runs).
    @inline(__always)
    func forEach(_ body: (any TicketedLifecycleListener) -> Void) {
        guard let list = current.load(ordering: .acquiring) else { return }
        list._withUnsafeGuaranteedRef { list in
            for listener in list.listeners { body(listener) }
        }
    }
}

/// One published set of lifecycle listeners; never changed once made.
private final class ListenerList: Sendable {
    let listeners: [any TicketedLifecycleListener]

    init(_ listeners: [any TicketedLifecycleListener]) {
        self.listeners = listeners
    }
}
