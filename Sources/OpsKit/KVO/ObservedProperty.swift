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
    /// With no observers this is one atomic load and one lock, inlined and specialised in the
    /// caller (a few ns instead of ~80 ns of unspecialised generic code from another module);
    /// with observers (none asking for `.prior`) one more lock to take the observer list and a
    /// typed call per observer.
    @inlinable
    public func set(_ newValue: Value, publishingOn owner: some KeyValueObservingPublisher) {
        #if !canImport(ObjectiveC)
        if !owner.keyValueObservers.hasPriorObservers {
            // No `.prior` pass needed: store and take the old value in one lock round-trip,
            // then deliver (a no-op after one atomic load when nothing observes).
            let old = storage.withLock { value -> Value in
                let old = value
                value = newValue
                return old
            }
            if owner.keyValueObservers.hasObservers {
                owner.keyValueObservers.didChange(name, old: old, new: newValue)
            }
            return
        }
        #endif
        publish(newValue, on: owner)
    }

    @usableFromInline
    func publish(_ newValue: Value, on owner: some KeyValueObservingPublisher) {
        let old = value
        owner.publishChange(name, old: old, new: newValue) {
            storage.withLock { $0 = newValue }
        }
    }
}
