#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// The observers of one object; the Linux engine behind `observe(_:…)`.
///
/// Publishing with no observers costs one atomic load and allocates nothing. With observers, a
/// change takes one lock round trip to snapshot the (small, flat) observer list, then calls each
/// matching observer outside the lock, on the publishing thread, in registration order. A value
/// published with the type it is observed as reaches the handler without `Any` boxing or dynamic
/// casts of the values; the `.prior` pass is skipped unless some observer asked for it.
///
/// The `owner:` overloads are the fast path: the publisher passes itself (alive while it
/// publishes). The overloads without it read the owner through a weak reference taken at the
/// first registration.
public final class KeyValueObserverRegistry: Sendable {
    @usableFromInline
    struct State {
        /// The oldest observer, kept inline: one observer per object needs no array.
        @usableFromInline var first: ObservationEntry?
        /// The others, in registration order. Copy-on-write: a snapshot is a retain.
        @usableFromInline var rest: [ObservationEntry] = []
        /// The observed object, for the overloads that are not told it.
        @usableFromInline weak var owner: (any AnyObject & Sendable)?

        @usableFromInline init() {}
    }

    @usableFromInline let state = Mutex(State())
    /// Registered observers.
    @usableFromInline let count = Atomic<Int>(0)
    /// Registered observers that asked for `.prior`.
    @usableFromInline let priorCount = Atomic<Int>(0)

    /// Creates an empty registry (no allocation until the first observer).
    public init() {}

    /// Whether anything observes `key` (cheap when nothing observes anything).
    public func isObserved(_ key: String) -> Bool {
        guard hasObservers else { return false }
        let (first, rest) = snapshot()
        if let first, first.key.name == key { return true }
        return rest.contains { $0.key.name == key }
    }

    /// Whether anything observes this object at all; one atomic load.
    /// Inlinable so that a publisher in another module checks it without generic overhead.
    @inlinable
    public var hasObservers: Bool { count.load(ordering: .acquiring) > 0 }

    /// Whether any observer asked for `.prior` notifications; one atomic load.
    @inlinable
    public var hasPriorObservers: Bool { priorCount.load(ordering: .acquiring) > 0 }

    // MARK: Registering

    /// Registers `handler` for the property `key` describes, on `owner`.
    @inlinable
    func register<Root: AnyObject & Sendable, Value>(
        _ key: TypedObservedKey<Value>, owner: Root, options: NSKeyValueObservingOptions,
        handler: @escaping @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let entry = HandlerEntry(registry: self, key: key, options: options, handler: handler)
        add(entry, owner: owner)
        return NSKeyValueObservation(entry: entry)
    }

    @usableFromInline
    func add(_ entry: ObservationEntry, owner: any AnyObject & Sendable) {
        state.withLock { state in
            if state.owner == nil { state.owner = owner }
            if state.first == nil {
                state.first = entry
            } else {
                if state.rest.isEmpty { state.rest.reserveCapacity(3) }
                state.rest.append(entry)
            }
            count.add(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.add(1, ordering: .releasing) }
        }
    }

    /// Removes `entry`; the entry is released after the lock (its handler may own anything).
    func remove(_ entry: ObservationEntry) {
        let removed = state.withLock { state -> ObservationEntry? in
            let removed: ObservationEntry?
            if state.first === entry {
                removed = state.first
                state.first = state.rest.isEmpty ? nil : state.rest.removeFirst()
            } else if let index = state.rest.lastIndex(where: { $0 === entry }) {
                removed = state.rest.remove(at: index)
            } else {
                return nil
            }
            if state.rest.isEmpty, state.rest.capacity > 0 { state.rest = [] }
            count.subtract(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.subtract(1, ordering: .releasing) }
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// The observer list: one lock round trip, two retains.
    @inlinable
    func snapshot() -> (ObservationEntry?, [ObservationEntry]) {
        state.withLock { ($0.first, $0.rest) }
    }

    @inlinable
    func snapshotWithOwner() -> (ObservationEntry?, [ObservationEntry], (any AnyObject & Sendable)?) {
        state.withLock { ($0.first, $0.rest, $0.owner) }
    }

    // MARK: Publishing, owner known (fast path)

    /// Sends the before-change notification of `key` to observers that asked for `.prior`;
    /// `owner` is the object whose property changes (the one observed).
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value, owner: AnyObject) {
        guard hasPriorObservers else { return }
        let (first, rest) = snapshot()
        deliverPrior(key, owner: owner, first: first, rest: rest, old: old)
    }

    /// Sends the change notification of `key` to its observers; `owner` is the object whose
    /// property changed (the one observed).
    @inlinable
    public func didChange<Value>(
        _ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value, owner: AnyObject
    ) {
        guard hasObservers else { return }
        let (first, rest) = snapshot()
        deliver(key, owner: owner, first: first, rest: rest, kind: .setting, old: old, new: new, indexes: nil)
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`; `owner` is the observed object.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet, owner: AnyObject
    ) {
        guard hasObservers else { return }
        let (first, rest) = snapshot()
        deliverElements(key, owner: owner, first: first, rest: rest, kind: kind, elements: elements, indexes: indexes)
    }

    // MARK: Publishing, owner read from the registry

    /// Sends the before-change notification of `key` to observers that asked for `.prior`.
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value) {
        guard hasPriorObservers else { return }
        let (first, rest, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliverPrior(key, owner: owner, first: first, rest: rest, old: old)
    }

    /// Sends the change notification of `key` to its observers.
    @inlinable
    public func didChange<Value>(_ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value) {
        guard hasObservers else { return }
        let (first, rest, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliver(key, owner: owner, first: first, rest: rest, kind: .setting, old: old, new: new, indexes: nil)
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet
    ) {
        guard hasObservers else { return }
        let (first, rest, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliverElements(key, owner: owner, first: first, rest: rest, kind: kind, elements: elements, indexes: indexes)
    }

    // MARK: Delivery

    @inlinable
    func deliverPrior<Value>(
        _ key: String, owner: AnyObject, first: ObservationEntry?, rest: [ObservationEntry], old: () -> Value
    ) {
        var oldValue: Value?
        func send(_ entry: ObservationEntry) {
            let options = entry.options
            guard options.contains(.prior), entry.key.name == key, entry.active.load(ordering: .acquiring) else {
                return
            }
            if oldValue == nil { oldValue = old() }
            let sentOld = options.contains(.old) ? oldValue : nil
            invoke(entry, owner: owner, kind: .setting, old: sentOld, new: nil, indexes: nil, isPrior: true)
        }
        if let first { send(first) }
        for entry in rest { send(entry) }
    }

    @inlinable
    func deliver<Value>(
        _ key: String, owner: AnyObject, first: ObservationEntry?, rest: [ObservationEntry],
        kind: NSKeyValueChange, old: () -> Value, new: () -> Value, indexes: IndexSet?
    ) {
        var values: (old: Value, new: Value)?
        func send(_ entry: ObservationEntry) {
            guard entry.key.name == key, entry.active.load(ordering: .acquiring) else { return }
            if values == nil { values = (old(), new()) }
            guard let values else { return }
            let options = entry.options
            invoke(
                entry, owner: owner, kind: kind, old: options.contains(.old) ? values.old : nil,
                new: options.contains(.new) ? values.new : nil, indexes: indexes, isPrior: false)
        }
        if let first { send(first) }
        for entry in rest { send(entry) }
    }

    @inlinable
    func deliverElements<Element>(
        _ key: String, owner: AnyObject, first: ObservationEntry?, rest: [ObservationEntry],
        kind: NSKeyValueChange, elements: () -> [Element], indexes: () -> IndexSet
    ) {
        var values: (elements: [Element], indexes: IndexSet)?
        func send(_ entry: ObservationEntry) {
            guard entry.key.name == key, entry.active.load(ordering: .acquiring) else { return }
            if values == nil { values = (elements(), indexes()) }
            guard let changed = values?.elements, let positions = values?.indexes else { return }
            let wantsValues = entry.options.contains(kind == .removal ? .old : .new)
            invoke(
                entry, owner: owner, kind: kind, old: kind == .removal && wantsValues ? changed : nil,
                new: kind == .insertion && wantsValues ? changed : nil, indexes: positions, isPrior: false)
        }
        if let first { send(first) }
        for entry in rest { send(entry) }
    }

    /// Calls one entry: typed when the published type is the observed one, else through `Any`.
    @inlinable
    func invoke<Value>(
        _ entry: ObservationEntry, owner: AnyObject, kind: NSKeyValueChange, old: Value?, new: Value?,
        indexes: IndexSet?, isPrior: Bool
    ) {
        let key = entry.key
        if key.valueType == ObjectIdentifier(Value.self) {
            unsafeDowncast(key, to: TypedObservedKey<Value>.self).invoke(entry, owner, kind, old, new, indexes, isPrior)
        } else {
            key.invokeErased(entry, owner, kind, old.map { $0 as Any }, new.map { $0 as Any }, indexes, isPrior)
        }
    }
}
#endif
