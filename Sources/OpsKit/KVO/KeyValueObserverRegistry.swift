#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// The observers of one object; the Linux engine behind `observe(_:…)`.
///
/// Publishing with no observers costs one atomic load and allocates nothing. With observers, a
/// change takes no lock and no reference count: the publisher announces itself as a reader
/// (one atomic add), loads the current observer list (an immutable value behind an atomic
/// pointer), calls each matching observer on the publishing thread, in registration order, and
/// leaves (one atomic subtract). Registering or removing an observer builds a new list under a
/// lock and swaps it in; a replaced list is released once no delivery is under way (by the
/// writer, or by the last delivery to leave), so a writer never waits for a handler, and a
/// handler may observe or invalidate anything, this object included.
///
/// A value published with the type it is observed as reaches the handler without `Any` boxing or
/// dynamic casts of the values; the `.prior` pass is skipped unless some observer asked for it.
/// The `owner:` overloads are the fast path: the publisher passes itself (alive while it
/// publishes). The overloads without it read the owner kept at the first registration.
public final class KeyValueObserverRegistry: Sendable {
    /// What only writers touch, under `writer`.
    @usableFromInline
    struct Writer {
        // Each element is a former `current` +1, now owned by this array: handed to a
        // `Released` by `takeRetired` (dropped after unlocking) once `readers` is seen at 0.
        /// Replaced lists (or single entries) that a delivery may still be reading.
        var retired: [AnyObject] = []
        /// The observed object, for the overloads that are not told it. `unowned`, not `weak`: a
        /// weak reference gives the object a side table, which makes every retain and release of
        /// it (anywhere in the program) take the slow path. The registry belongs to its owner,
        /// whose own methods publish, so the owner is alive whenever it is read.
        unowned var owner: (any AnyObject & Sendable)?
        /// Whether `ownerType` was set by a registration; `mixedOwnerTypes` once two differed.
        var ownerTypeKnown = false
        var mixedOwnerTypes = false

        init() {}
    }

    /// Registered observers.
    @usableFromInline let count = Atomic<Int>(0)
    /// Registered observers that asked for `.prior`.
    @usableFromInline let priorCount = Atomic<Int>(0)
    // Reader count protocol (all four operations sequentially consistent; acquire/release is
    // not enough for a store followed by a load of another variable):
    // - Entering: a delivery adds 1 to `readers`, then loads `current`. A writer stores
    //   `current`, then loads `readers`. In the single order of these operations, either the
    //   writer's load comes after the delivery's add (it sees a reader and retires the old value
    //   instead of releasing it) or the delivery's load of `current` comes after the writer's
    //   store (it reads the new value). So no delivery reads a value released by `replace`.
    // - Leaving: a delivery subtracts 1, then loads `hasRetired`; a writer that retires sets
    //   `hasRetired`, then loads `readers` (`reclaimIfQuiet`). Either the writer sees 0 and
    //   releases, or the delivery sees `hasRetired` and calls `reclaim()` (which releases if
    //   the count is still 0; if not, a delivery still counted will see `hasRetired` as it
    //   leaves). A retired value is never left behind once no delivery is under way.
    // - The subtract is a read-modify-write with release semantics, and a writer's load of 0
    //   acquires it: every read a delivery made of a list happens before that list's release.
    // - The count covers all deliveries, not those of one list: a retired value waits for a
    //   moment with no delivery at all (nothing is freed early; under a constant stream of
    //   overlapping deliveries, `retired` grows until such a moment comes).
    // - ThreadSanitizer (`.ci/run`) sees these atomics and the `writer` lock, not this argument:
    //   Swift 6.3's TSan reports no access racing with a `free`, so a release made too early shows
    //   up as a crash or a failed test (`KVOEngineTests`, `KVORegistryConcurrencyTests`).
    /// Deliveries under way. A list swapped out is released only once this is 0.
    @usableFromInline let readers = Atomic<Int>(0)
    // The tag bit: an `ObservationEntry` or `ObserverList` is a Swift heap object, whose header
    // starts with a pointer; the runtime allocates objects at least pointer-aligned (with
    // `malloc`: 16 bytes), so bit 0 of an `Unmanaged.toOpaque()` bit pattern is always 0 and is
    // free to mark a list. No object lives at address 0, so 0 means "no observers".
    // Ownership: `current` owns one +1 on the object it designates (made by `passRetained` in
    // `add` and `observers(_:)`), taken back exactly once by `takeObservers`: when `replace`
    // swaps the value out (then released after unlocking, or kept in `Writer.retired` until no
    // delivery is under way) or in `deinit`. Deliveries borrow that +1 and take none.
    /// The observers: 0 (none), the bit pattern of one `ObservationEntry` (the registry's +1), or
    /// that of an `ObserverList` with the low bit set. Replaced only under `writer`.
    @usableFromInline let current = Atomic<Int>(0)
    /// Bit pattern of the `ObjectIdentifier` of the dynamic type of every object that registered
    /// here, while they all had the same one; 0 once they differ. A publisher of exactly this type
    /// is an instance of every entry's root type, so delivery needs no dynamic cast.
    @usableFromInline let ownerType = Atomic<Int>(0)
    /// One bit per observed key-name length (`1 << (length & 63)`): a publish of a key nobody
    /// observes (most of them: an operation publishes five keys, a monitor watches one) returns
    /// after one atomic load, without announcing itself as a reader.
    @usableFromInline let observedKeyLengths = Atomic<UInt64>(0)
    /// Whether `retired` holds anything (checked by each delivery as it leaves).
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    @usableFromInline let writer = Mutex(Writer())

    /// Creates an empty registry (no allocation until the first observer).
    public init() {}

    // Every entry (registered or retired) holds its registry, so this runs with `current` at 0
    // and nothing retired; the release is a safeguard, and needs no reader count: no delivery
    // can be under way (a publisher keeps its owner, and so this registry, alive).
    deinit {
        let raw = current.load(ordering: .acquiring)
        if raw != 0 { Self.releaseObservers(raw) }
    }

    /// Whether anything observes `key` (cheap when nothing observes anything).
    public func isObserved(_ key: String) -> Bool {
        guard hasObservers else { return false }
        return withObservers { observers in
            observers.contains { entry in entry.key.name == key }
        }
    }

    /// Whether some observer may observe `key` (false: certainly none); one atomic load.
    @inlinable
    func mayObserve(_ key: String) -> Bool {
        observedKeyLengths.load(ordering: .acquiring) & Self.lengthBit(key) != 0
    }

    @inlinable
    static func lengthBit(_ key: String) -> UInt64 {
        1 &<< UInt64(truncatingIfNeeded: key.utf8.count & 63)
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
        let released = writer.withLock { state -> Released in
            if state.owner == nil { state.owner = owner }
            // Stored before the new list is published: a delivery that sees the list sees this.
            let type = Int(bitPattern: ObjectIdentifier(Swift.type(of: owner)))
            if !state.ownerTypeKnown {
                state.ownerTypeKnown = true
                ownerType.store(type, ordering: .sequentiallyConsistent)
            } else if !state.mixedOwnerTypes, ownerType.load(ordering: .relaxed) != type {
                state.mixedOwnerTypes = true
                ownerType.store(0, ordering: .sequentiallyConsistent)
            }
            let old = current.load(ordering: .relaxed)
            // `passRetained`: `current`'s +1 on a single entry (see `current`).
            let released =
                old == 0
                ? replace(old, with: Int(bitPattern: Unmanaged.passRetained(entry).toOpaque()), in: &state)
                : replace(old, with: Self.observers(Self.entries(old) + [entry]), in: &state)
            count.add(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.add(1, ordering: .releasing) }
            return released
        }
        withExtendedLifetime(released) {}
    }

    /// Removes `entry`; what it releases is released after the lock (a handler may own anything).
    func remove(_ entry: ObservationEntry) {
        let released = writer.withLock { state -> Released in
            let old = current.load(ordering: .relaxed)
            let new: Int
            if old == Int(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) {
                new = 0  // the only observer
            } else {
                var entries = Self.entries(old)
                guard let index = entries.lastIndex(where: { $0 === entry }) else { return Released() }
                entries.remove(at: index)
                new = Self.observers(entries)
            }
            count.subtract(1, ordering: .releasing)
            if entry.options.contains(.prior) { priorCount.subtract(1, ordering: .releasing) }
            return replace(old, with: new, in: &state)
        }
        withExtendedLifetime(released) {}
    }

    /// A `current` value holding `entries` (the registry's +1).
    private static func observers(_ entries: [ObservationEntry]) -> Int {
        switch entries.count {
        case 0: 0
        // Both `passRetained`s below make `current`'s +1. A list's own `entries` array holds one
        // more reference on each entry (released with the list), which keeps its `borrowed`
        // copies valid; the entry's token (`NSKeyValueObservation`) holds another.
        case 1: Int(bitPattern: Unmanaged.passRetained(entries[0]).toOpaque())
        default: Int(bitPattern: Unmanaged.passRetained(ObserverList(entries)).toOpaque()) | 1
        }
    }

    /// Publishes `new` as the current observers (under `writer`). Returns what can be released
    /// now (after unlocking): the old observers and anything retired, when no delivery is under
    /// way; else the old observers wait in `retired` for the last delivery to leave. A delivery
    /// that starts after the swap reads the new value, so none can be reading what is released.
    private func replace(_ old: Int, with new: Int, in state: inout Writer) -> Released {
        var lengths: UInt64 = 0
        ObserverView(raw: new, ownerType: 0).forEach { lengths |= Self.lengthBit($0.key.name) }
        observedKeyLengths.store(lengths, ordering: .sequentiallyConsistent)
        current.store(new, ordering: .sequentiallyConsistent)
        guard old != 0 else { return Released() }
        let replaced = Self.takeObservers(old)
        // The load that pairs with a delivery's add in `withObservers` (see `readers`): 0 means
        // no delivery that could have read `old` is still under way.
        if readers.load(ordering: .sequentiallyConsistent) == 0 {
            return Released(replaced: replaced, retired: state.retired.isEmpty ? [] : takeRetired(&state))
        }
        state.retired.append(replaced)
        hasRetired.store(true, ordering: .sequentiallyConsistent)
        // A delivery that left meanwhile may have missed `hasRetired`.
        return reclaimIfQuiet(&state)
    }

    /// Observers swapped out, to release after unlocking (their handlers may own anything).
    private struct Released {
        var replaced: AnyObject?
        var retired: [AnyObject] = []
    }

    /// The retired observers if no delivery is under way (under `writer`).
    private func reclaimIfQuiet(_ state: inout Writer) -> Released {
        // Every retired value was swapped out before this load (all under `writer`): 0 here
        // means each delivery that could read one has left, and a delivery starting now reads
        // the newer `current`.
        guard !state.retired.isEmpty, readers.load(ordering: .sequentiallyConsistent) == 0 else { return Released() }
        return Released(retired: takeRetired(&state))
    }

    private func takeRetired(_ state: inout Writer) -> [AnyObject] {
        hasRetired.store(false, ordering: .sequentiallyConsistent)
        defer { state.retired = [] }
        return state.retired
    }

    /// Called by the last delivery to leave while something is retired.
    @usableFromInline
    func reclaim() {
        let released = writer.withLock { reclaimIfQuiet(&$0) }
        withExtendedLifetime(released) {}
    }

    /// The entries behind a `current` value (under `writer`, or with a reader announced).
    private static func entries(_ raw: Int) -> [ObservationEntry] {
        var entries: [ObservationEntry] = []
        ObserverView(raw: raw, ownerType: 0).forEach { entries.append($0) }
        return entries
    }

    /// Takes the registry's +1 on a `current` value.
    private static func takeObservers(_ raw: Int) -> AnyObject {
        // Bit 0 clear: a single entry; set: a list (see `current`). `takeRetainedValue` turns
        // `current`'s +1 into this strong reference; the caller decides when it is dropped.
        if raw & 1 == 0 { return Unmanaged<ObservationEntry>.fromOpaque(rawPointer(raw)).takeRetainedValue() }
        return Unmanaged<ObserverList>.fromOpaque(rawPointer(raw & ~1)).takeRetainedValue()
    }

    private static func releaseObservers(_ raw: Int) {
        withExtendedLifetime(takeObservers(raw)) {}
    }

    @usableFromInline
    static func rawPointer(_ raw: Int) -> UnsafeRawPointer {
        // Only called with a non-zero value stored by `swap`.
        UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped
    }

    // MARK: Reading

    /// Runs `body` on the current observers, announced as a reader (no lock, no retain).
    @inlinable
    func withObservers<R>(_ body: (ObserverView) -> R) -> R {
        // Announce, then load (see `readers`): both the order and the ordering matter.
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            readers.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            // Subtract, then load: a writer that retired something while this delivery was
            // counted either saw the count at 0 itself or is seen here (see `readers`).
            if hasRetired.load(ordering: .sequentiallyConsistent) { reclaim() }
        }
        let raw = current.load(ordering: .sequentiallyConsistent)
        return body(ObserverView(raw: raw, ownerType: ownerType.load(ordering: .sequentiallyConsistent)))
    }

    // MARK: Publishing, owner known (fast path)

    /// Sends the before-change notification of `key` to observers that asked for `.prior`;
    /// `owner` is the object whose property changes (the one observed).
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value, owner: AnyObject) {
        guard hasPriorObservers, mayObserve(key) else { return }
        withObservers { deliverPrior(key, owner: owner, $0, old: old) }
    }

    /// Sends the change notification of `key` to its observers; `owner` is the object whose
    /// property changed (the one observed).
    @inlinable
    public func didChange<Value>(
        _ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value, owner: AnyObject
    ) {
        guard hasObservers, mayObserve(key) else { return }
        withObservers { deliver(key, owner: owner, $0, old: old, new: new) }
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`; `owner` is the observed object.
    /// Neither is computed unless an observer of `key` receives it.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet, owner: AnyObject
    ) {
        guard hasObservers, mayObserve(key) else { return }
        withObservers { deliverElements(key, owner: owner, $0, kind: kind, elements: elements, indexes: indexes) }
    }

    // MARK: Publishing, owner read from the registry

    /// The owner kept at the first registration.
    @usableFromInline
    var registeredOwner: (any AnyObject & Sendable)? {
        writer.withLock { $0.owner }
    }

    /// Sends the before-change notification of `key` to observers that asked for `.prior`.
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value) {
        guard hasPriorObservers, mayObserve(key), let owner = registeredOwner else { return }
        withObservers { deliverPrior(key, owner: owner, $0, old: old) }
    }

    /// Sends the change notification of `key` to its observers.
    @inlinable
    public func didChange<Value>(_ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value) {
        guard hasObservers, mayObserve(key), let owner = registeredOwner else { return }
        withObservers { deliver(key, owner: owner, $0, old: old, new: new) }
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet
    ) {
        guard hasObservers, mayObserve(key), let owner = registeredOwner else { return }
        withObservers { deliverElements(key, owner: owner, $0, kind: kind, elements: elements, indexes: indexes) }
    }

    // MARK: Delivery

    @inlinable
    func deliverPrior<Value>(_ key: String, owner: AnyObject, _ observers: ObserverView, old: () -> Value) {
        let exact = observers.isExactOwner(owner)
        var oldValue: Value?
        var computed = false
        observers.forEach { entry in
            guard entry.wants(key, prior: true) else { return }
            if !computed, entry.options.contains(.old) {
                oldValue = old()
                computed = true
            }
            Self.invoke(
                entry, owner: owner, exact: exact, kind: .setting,
                old: entry.options.contains(.old) ? oldValue : nil, new: nil, indexes: nil, isPrior: true)
        }
    }

    @inlinable
    func deliver<Value>(
        _ key: String, owner: AnyObject, _ observers: ObserverView, old: () -> Value, new: () -> Value
    ) {
        let exact = observers.isExactOwner(owner)
        // The common case, one observer: values computed only for it, no list.
        if let single = observers.single {
            single._withUnsafeGuaranteedRef { entry in
                guard entry.wants(key, prior: false) else { return }
                let options = entry.options
                Self.invoke(
                    entry, owner: owner, exact: exact, kind: .setting,
                    old: options.contains(.old) ? old() : nil,
                    new: options.contains(.new) ? new() : nil, indexes: nil, isPrior: false)
            }
            return
        }
        var oldValue: Value?
        var newValue: Value?
        var computed = false
        observers.forEach { entry in
            guard entry.wants(key, prior: false) else { return }
            let options = entry.options
            if !computed {
                // Both, once, in this order (as before the list held more than one observer).
                oldValue = old()
                newValue = new()
                computed = true
            }
            Self.invoke(
                entry, owner: owner, exact: exact, kind: .setting, old: options.contains(.old) ? oldValue : nil,
                new: options.contains(.new) ? newValue : nil, indexes: nil, isPrior: false)
        }
    }

    @inlinable
    func deliverElements<Element>(
        _ key: String, owner: AnyObject, _ observers: ObserverView, kind: NSKeyValueChange,
        elements: () -> [Element], indexes: () -> IndexSet
    ) {
        let exact = observers.isExactOwner(owner)
        let valueOption: NSKeyValueObservingOptions = kind == .removal ? .old : .new
        var changed: [Element]?
        var positions: IndexSet?
        observers.forEach { entry in
            guard entry.wants(key, prior: false) else { return }
            if positions == nil { positions = indexes() }
            var values: [Element]?
            if entry.options.contains(valueOption) {
                if changed == nil { changed = elements() }
                values = changed
            }
            Self.invoke(
                entry, owner: owner, exact: exact, kind: kind, old: kind == .removal ? values : nil,
                new: kind == .insertion ? values : nil, indexes: positions, isPrior: false)
        }
    }

    /// Calls one entry: typed when the published type is the observed one, else through `Any`.
    /// `exact`: the owner is known to be an instance of the entry's root (see `ownerType`).
    @inlinable
    static func invoke<Value>(
        _ entry: ObservationEntry, owner: AnyObject, exact: Bool, kind: NSKeyValueChange, old: Value?,
        new: Value?, indexes: IndexSet?, isPrior: Bool
    ) {
        entry.borrowedKey._withUnsafeGuaranteedRef { key in
            if key.valueType == ObjectIdentifier(Value.self) {
                withUnsafePointer(
                    to: NSKeyValueObservedChange(
                        kind: kind, newValue: new, oldValue: old, indexes: indexes, isPrior: isPrior)
                ) { change in
                    unsafeDowncast(key, to: TypedObservedKey<Value>.self).invoke(
                        entry, owner, exact, UnsafeRawPointer(change))
                }
            } else {
                key.invokeErased(
                    entry, owner, exact, kind, old.map { $0 as Any }, new.map { $0 as Any }, indexes, isPrior)
            }
        }
    }
}

/// Two or more observers, in registration order; immutable once published.
@usableFromInline
final class ObserverList: Sendable {
    /// The observers (this list keeps them alive).
    @usableFromInline let entries: [ObservationEntry]
    // Unretained: valid as long as this list is alive, since `entries` holds each one.
    /// The same, unretained: what a delivery iterates, so that reading an element is not a
    /// retain and a release on an object every publishing thread shares.
    @usableFromInline let borrowed: [Unmanaged<ObservationEntry>]

    init(_ entries: [ObservationEntry]) {
        self.entries = entries
        self.borrowed = entries.map { Unmanaged.passUnretained($0) }
    }
}

/// The observers a delivery reads, valid while it is announced as a reader.
@usableFromInline
struct ObserverView {
    /// The only observer, if there is exactly one.
    @usableFromInline let single: Unmanaged<ObservationEntry>?
    /// The observers, if there are two or more.
    @usableFromInline let list: Unmanaged<ObserverList>?
    @usableFromInline let ownerType: Int

    // Holds no reference: `single` and `list` borrow `current`'s +1, valid only while the
    // reader that made this view is counted in `readers` (or under `writer`).
    @inlinable
    init(raw: Int, ownerType: Int) {
        self.ownerType = ownerType
        if raw == 0 {
            single = nil
            list = nil
        } else if raw & 1 == 0 {
            single = Unmanaged.fromOpaque(KeyValueObserverRegistry.rawPointer(raw))
            list = nil
        } else {
            single = nil
            list = Unmanaged.fromOpaque(KeyValueObserverRegistry.rawPointer(raw & ~1))
        }
    }

    /// Whether `owner` is an instance of every entry's root (so it can be downcast unchecked).
    @inlinable
    func isExactOwner(_ owner: AnyObject) -> Bool {
        ownerType != 0
            && ownerType == Int(bitPattern: ObjectIdentifier(type(of: owner)))
    }

    /// Calls `body` with each observer, in registration order.
    @inlinable
    func forEach(_ body: (ObservationEntry) -> Void) {
        if let single {
            single._withUnsafeGuaranteedRef(body)
        } else if let list {
            list._withUnsafeGuaranteedRef { list in
                for entry in list.borrowed { entry._withUnsafeGuaranteedRef(body) }
            }
        }
    }

    /// Whether some observer satisfies `predicate`.
    @inlinable
    func contains(where predicate: (ObservationEntry) -> Bool) -> Bool {
        var found = false
        forEach { entry in if !found, predicate(entry) { found = true } }
        return found
    }
}
#endif
