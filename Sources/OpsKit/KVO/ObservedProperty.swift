import Synchronization

/// A lock-protected stored value that publishes its changes under a property name: how an OpsKit
/// class declares an observable stored property in one line
/// (`let _bytes = ObservedProperty("completedBytes", 0 as Int64)`) and exposes it read-only.
public final class ObservedProperty<Value: Sendable>: Sendable {
    /// The published property name.
    public let name: String
    private let storage: Mutex<Value>

    /// Creates the property with its published `name` and first value.
    public init(_ name: String, _ initial: Value) {
        self.name = name
        self.storage = Mutex(initial)
    }

    /// The current value.
    public var value: Value { storage.withLock { $0 } }

    /// Stores `newValue` and publishes the change through `owner`, outside the lock.
    public func set(_ newValue: Value, publishingOn owner: some KeyValueObservingPublisher) {
        let old = value
        owner.publishChange(name, old: old, new: newValue) {
            storage.withLock { $0 = newValue }
        }
    }
}
