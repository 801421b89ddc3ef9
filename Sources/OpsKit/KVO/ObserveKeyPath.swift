#if !canImport(ObjectiveC)
import Foundation

extension KeyValueObservingPublisher {
    /// Observes the property at `keyPath`, with Foundation KVO's semantics for `.initial`,
    /// `.prior`, `.old` and `.new`. Notifications arrive synchronously on the changing thread,
    /// in change order. Observing stops when the returned token is invalidated or released.
    ///
    /// A subscription allocates its registry entry and its token; the key path's name and typed
    /// delivery code are looked up once per key path and shared.
    @inlinable
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let shared = ObservableKeyTable.observedKey(
            keyPath, root: Self.self, names: { ObservableKeyTable.collect(Self.self) },
            make: { name in TypedObservedKey<Value>.make(name: name, root: Self.self) })
        // The key of this key path was made for `Value` (the key path fixes it), by this function.
        let key = unsafeDowncast(shared, to: TypedObservedKey<Value>.self)
        return register(keyPath, key: key, options: options, changeHandler: changeHandler)
    }
}

/// A type whose observable key paths are listed in `observableKeyPaths`; each family of
/// publishers lists its properties once, in a protocol extension, so the list holds key paths
/// rooted at every concrete subclass.
public protocol ListsObservableKeyPaths {
    /// Property names by key path, for `Self` as the root.
    static var observableKeyPaths: [AnyKeyPath: String] { get }
}

/// Marks `AsyncOperation` and subclasses: their state properties are observable.
public protocol ObservableOperationState: AsyncOperation {}
extension AsyncOperation: ObservableOperationState {}

extension ObservableOperationState {
    static var operationStateKeyPaths: [AnyKeyPath: String] {
        [
            \Self.isReady: "isReady", \Self.isExecuting: "isExecuting",
            \Self.isFinished: "isFinished", \Self.isCancelled: "isCancelled",
            \Self.state: "state",
        ]
    }
}

extension ObservableKeyTable {
    /// Every observable key path of `root`, from each family it belongs to.
    @usableFromInline
    static func collect<S>(_ root: S.Type) -> [AnyKeyPath: String] {
        var table: [AnyKeyPath: String] = [:]
        if let operation = root as? any ObservableOperationState.Type {
            table.merge(operation.operationStateKeyPaths) { first, _ in first }
        }
        if let queue = root as? any ObservableQueueState.Type {
            table.merge(queue.queueKeyPaths) { first, _ in first }
        }
        if let reporter = root as? any ProgressReportingOperation.Type {
            table.merge(reporter.progressReportingKeyPaths) { first, _ in first }
        }
        if let work = root as? any ObservableSimulatedWork.Type {
            table.merge(work.simulatedWorkKeyPaths) { first, _ in first }
        }
        if let listed = root as? any ListsObservableKeyPaths.Type {
            table.merge(listed.observableKeyPaths) { first, _ in first }
        }
        return table
    }
}
#endif
