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
        /// The observed object, for the overloads that are not told it. `unowned`, not `weak`: a
        /// weak reference gives the object a side table, which makes every retain and release of
        /// it (anywhere in the program) take the slow path. The registry belongs to its owner,
        /// whose own methods publish, so the owner is alive whenever it is read.
        @usableFromInline unowned var owner: (any AnyObject & Sendable)?
        /// The dynamic type of every object that registered an observer here, while they all
        /// had the same one (nil once they differ). A publisher of exactly this type is an
        /// instance of every entry's root type, so delivery needs no dynamic cast.
        @usableFromInline var ownerType: ObjectIdentifier?
        @usableFromInline var mixedOwnerTypes = false

        @usableFromInline init() {}
    }

    /// What a delivery works from, taken under the lock in one round trip.
    @usableFromInline
    struct Snapshot {
        @usableFromInline var first: ObservationEntry?
        /// Nil when there is no other observer (no retain of an empty array).
        @usableFromInline var rest: [ObservationEntry]?
        @usableFromInline var ownerType: ObjectIdentifier?

        @inlinable
        init(_ state: borrowing State) {
            first = state.first
            rest = state.rest.isEmpty ? nil : state.rest
            ownerType = state.ownerType
        }

        /// Whether `owner` is an instance of every entry's root (so it can be downcast unchecked).
        @inlinable
        func isExactOwner(_ owner: AnyObject) -> Bool {
            ownerType == ObjectIdentifier(type(of: owner))
        }
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
        let snapshot = snapshot()
        if let first = snapshot.first, first.key.name == key { return true }
        return snapshot.rest?.contains { $0.key.name == key } ?? false
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
            let type = ObjectIdentifier(Swift.type(of: owner))
            if state.ownerType != type {
                if state.ownerType != nil || state.mixedOwnerTypes {
                    state.mixedOwnerTypes = true
                    state.ownerType = nil
                } else {
                    state.ownerType = type
                }
            }
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

    /// The observer list: one lock round trip, one retain per non-empty part.
    @inlinable
    func snapshot() -> Snapshot {
        state.withLock { Snapshot($0) }
    }

    @inlinable
    func snapshotWithOwner() -> (Snapshot, (any AnyObject & Sendable)?) {
        state.withLock { (Snapshot($0), $0.owner) }
    }

    // MARK: Publishing, owner known (fast path)

    /// Sends the before-change notification of `key` to observers that asked for `.prior`;
    /// `owner` is the object whose property changes (the one observed).
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value, owner: AnyObject) {
        guard hasPriorObservers else { return }
        deliverPrior(key, owner: owner, snapshot(), old: old)
    }

    /// Sends the change notification of `key` to its observers; `owner` is the object whose
    /// property changed (the one observed).
    @inlinable
    public func didChange<Value>(
        _ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value, owner: AnyObject
    ) {
        guard hasObservers else { return }
        deliver(key, owner: owner, snapshot(), kind: .setting, old: old, new: new, indexes: nil)
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`; `owner` is the observed object.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet, owner: AnyObject
    ) {
        guard hasObservers else { return }
        deliverElements(key, owner: owner, snapshot(), kind: kind, elements: elements, indexes: indexes)
    }

    // MARK: Publishing, owner read from the registry

    /// Sends the before-change notification of `key` to observers that asked for `.prior`.
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value) {
        guard hasPriorObservers else { return }
        let (snapshot, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliverPrior(key, owner: owner, snapshot, old: old)
    }

    /// Sends the change notification of `key` to its observers.
    @inlinable
    public func didChange<Value>(_ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value) {
        guard hasObservers else { return }
        let (snapshot, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliver(key, owner: owner, snapshot, kind: .setting, old: old, new: new, indexes: nil)
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet
    ) {
        guard hasObservers else { return }
        let (snapshot, owner) = snapshotWithOwner()
        guard let owner else { return }
        deliverElements(key, owner: owner, snapshot, kind: kind, elements: elements, indexes: indexes)
    }

    // MARK: Delivery

    /// Whether the snapshot holds an observer of `key` (and, with `prior`, one that asked for
    /// `.prior`): values are only computed when someone will receive them.
    @inlinable
    static func wants(_ key: String, prior: Bool, _ snapshot: Snapshot) -> Bool {
        if let first = snapshot.first, first.wants(key, prior: prior) { return true }
        guard let rest = snapshot.rest else { return false }
        for entry in rest where entry.wants(key, prior: prior) { return true }
        return false
    }

    @inlinable
    func deliverPrior<Value>(_ key: String, owner: AnyObject, _ snapshot: Snapshot, old: () -> Value) {
        guard Self.wants(key, prior: true, snapshot) else { return }
        let oldValue = old()
        let exact = snapshot.isExactOwner(owner)
        if let first = snapshot.first, first.wants(key, prior: true) {
            Self.invoke(first, owner: owner, exact: exact, kind: .setting,
                        old: first.options.contains(.old) ? oldValue : nil, new: nil, indexes: nil, isPrior: true)
        }
        guard let rest = snapshot.rest else { return }
        for entry in rest where entry.wants(key, prior: true) {
            Self.invoke(entry, owner: owner, exact: exact, kind: .setting,
                        old: entry.options.contains(.old) ? oldValue : nil, new: nil, indexes: nil, isPrior: true)
        }
    }

    @inlinable
    func deliver<Value>(
        _ key: String, owner: AnyObject, _ snapshot: Snapshot, kind: NSKeyValueChange, old: () -> Value,
        new: () -> Value, indexes: IndexSet?
    ) {
        let exact = snapshot.isExactOwner(owner)
        // The common case, one observer: no pre-scan, values computed only for it.
        guard let rest = snapshot.rest else {
            guard let first = snapshot.first, first.wants(key, prior: false) else { return }
            let options = first.options
            Self.invoke(first, owner: owner, exact: exact, kind: kind, old: options.contains(.old) ? old() : nil,
                        new: options.contains(.new) ? new() : nil, indexes: indexes, isPrior: false)
            return
        }
        guard Self.wants(key, prior: false, snapshot) else { return }
        let oldValue = old()
        let newValue = new()
        if let first = snapshot.first, first.wants(key, prior: false) {
            let options = first.options
            Self.invoke(first, owner: owner, exact: exact, kind: kind, old: options.contains(.old) ? oldValue : nil,
                        new: options.contains(.new) ? newValue : nil, indexes: indexes, isPrior: false)
        }
        for entry in rest where entry.wants(key, prior: false) {
            let options = entry.options
            Self.invoke(entry, owner: owner, exact: exact, kind: kind, old: options.contains(.old) ? oldValue : nil,
                        new: options.contains(.new) ? newValue : nil, indexes: indexes, isPrior: false)
        }
    }

    @inlinable
    func deliverElements<Element>(
        _ key: String, owner: AnyObject, _ snapshot: Snapshot, kind: NSKeyValueChange,
        elements: () -> [Element], indexes: () -> IndexSet
    ) {
        guard Self.wants(key, prior: false, snapshot) else { return }
        let changed = elements()
        let positions = indexes()
        let exact = snapshot.isExactOwner(owner)
        let valueOption: NSKeyValueObservingOptions = kind == .removal ? .old : .new
        if let first = snapshot.first, first.wants(key, prior: false) {
            let values = first.options.contains(valueOption) ? changed : nil
            Self.invoke(first, owner: owner, exact: exact, kind: kind, old: kind == .removal ? values : nil,
                        new: kind == .insertion ? values : nil, indexes: positions, isPrior: false)
        }
        guard let rest = snapshot.rest else { return }
        for entry in rest where entry.wants(key, prior: false) {
            let values = entry.options.contains(valueOption) ? changed : nil
            Self.invoke(entry, owner: owner, exact: exact, kind: kind, old: kind == .removal ? values : nil,
                        new: kind == .insertion ? values : nil, indexes: positions, isPrior: false)
        }
    }

    /// Calls one entry: typed when the published type is the observed one, else through `Any`.
    /// `exact`: the owner is known to be an instance of the entry's root (see `State.ownerType`).
    @inlinable
    static func invoke<Value>(
        _ entry: ObservationEntry, owner: AnyObject, exact: Bool, kind: NSKeyValueChange, old: Value?,
        new: Value?, indexes: IndexSet?, isPrior: Bool
    ) {
        let key = entry.key
        if key.valueType == ObjectIdentifier(Value.self) {
            unsafeDowncast(key, to: TypedObservedKey<Value>.self).invoke(
                entry, owner, exact, kind, old, new, indexes, isPrior)
        } else {
            key.invokeErased(entry, owner, exact, kind, old.map { $0 as Any }, new.map { $0 as Any }, indexes, isPrior)
        }
    }
}
#endif
