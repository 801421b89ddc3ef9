import Synchronization

/// A lock-protected stored value that publishes its changes under a property name: how an OpsKit
/// class declares an observable stored property in one line
/// (`let _bytes = ObservedProperty("completedBytes", 0 as Int64)`) and exposes it read-only.
public final class ObservedProperty<Value: Sendable>: Sendable {
    /// The published property name.
    public let name: String
    @usableFromInline let storage: Mutex<Value>

    /// Creates the property with its published `name` and first value.
    public init(_ name: String, _ initial: Value) {
        self.name = name
        self.storage = Mutex(initial)
    }

    /// The current value.
    public var value: Value { storage.withLock { $0 } }

    /// Stores `newValue` and publishes the change through `owner`, outside the lock.
    ///
    /// Inlined and specialised in the caller. Unless an observer asked for `.prior`, this is one
    /// swap under the lock, then the change notification (one atomic load when nobody observes,
    /// else one registry snapshot and a typed call per observer). An observer that registers
    /// meanwhile still gets the change: the check comes after the store.
    @inlinable
    public func set(_ newValue: Value, publishingOn owner: some KeyValueObservingPublisher) {
        #if !canImport(ObjectiveC)
        let observers = owner.keyValueObservers
        if !observers.hasPriorObservers {
            let old = storage.withLock { value -> Value in
                let old = value
                value = newValue
                return old
            }
            observers.didChange(name, old: old, new: newValue, owner: owner)
            return
        }
        #endif
        publish(newValue, on: owner)
    }

    /// Changes the value with `body` under the lock and publishes the change through `owner`,
    /// outside the lock; publishes nothing when `body` left the value equal.
    @inlinable
    public func update(publishingOn owner: some KeyValueObservingPublisher, _ body: (inout Value) -> Void)
    where Value: Equatable {
        #if !canImport(ObjectiveC)
        let observers = owner.keyValueObservers
        if !observers.hasPriorObservers {
            let (old, new) = storage.withLock { value -> (Value, Value) in
                let old = value
                body(&value)
                return (old, value)
            }
            if old != new { observers.didChange(name, old: old, new: new, owner: owner) }
            return
        }
        #endif
        var next = value
        body(&next)
        if next != value { publish(next, on: owner) }
    }

    /// The full sequence: prior notification, store, change notification.
    @inlinable
    func publish(_ newValue: Value, on owner: some KeyValueObservingPublisher) {
        let old = value
        owner.publishChange(name, old: old, new: newValue) {
            storage.withLock { $0 = newValue }
        }
    }
}
