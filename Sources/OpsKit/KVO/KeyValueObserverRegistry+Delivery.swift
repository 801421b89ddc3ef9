#if !canImport(ObjectiveC)
import Foundation
import Synchronization

extension KeyValueObserverRegistry {
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
    ///
    /// Always inlined (a publisher's hot path): the one-observer delivery then runs in the
    /// publisher with its values computed in place; more observers take one call. An observer
    /// that observed `owner`'s own static type is called directly (see `invoke`).
    @inlinable @inline(__always)
    public func didChange<Value>(
        _ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value, owner: some AnyObject
    ) {
        guard hasObservers, mayObserve(key) else { return }
        withObservers { deliver(key, owner: owner, $0, old: old, new: new) }
    }

    /// Sends the change notification of `key`, whose UTF-8 length is `length`, with both values
    /// known: what `ObservedProperty` publishes. No closure is built for the values and the key is
    /// not measured again. One atomic load when nobody observes a key of that length.
    @inlinable @inline(__always)
    func didChange<Owner: AnyObject, Value>(_ key: String, length: Int, old: Value, new: Value, owner: Owner) {
        // No separate `hasObservers` load: `replace` keeps `observedKeyLengths` at 0 while no
        // observer is registered. Sequentially consistent (a plain load on x86-64): it pairs with
        // a registration's store, as `current`'s load does (see `ObservedProperty.word`).
        guard observedKeyLengths.load(ordering: .sequentiallyConsistent) & Self.lengthBit(length) != 0 else { return }
        withObservers { observers in
            guard let single = observers.single else {
                deliverValuesToList(key, owner: owner, observers, old: old, new: new)
                return
            }
            single._withUnsafeGuaranteedRef { entry in
                guard entry.wants(key, length: length) else { return }
                Self.deliver(to: entry, owner: owner, observers, old: { old }, new: { new })
            }
        }
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

    /// Delivers a change: the one-observer case inline in the publisher (the values computed
    /// only for it, no list, no call but the handler's), more observers in `deliverToList`.
    @inlinable @inline(__always)
    func deliver<Owner: AnyObject, Value>(
        _ key: String, owner: Owner, _ observers: ObserverView, old: () -> Value, new: () -> Value
    ) {
        guard let single = observers.single else {
            deliverToList(key, owner: owner, observers, old: old, new: new)
            return
        }
        single._withUnsafeGuaranteedRef { entry in
            guard entry.wants(key, prior: false) else { return }
            Self.deliver(to: entry, owner: owner, observers, old: old, new: new)
        }
    }

    /// Delivers a change to `entry`, the one observer, which wants it: each value computed only
    /// if the observer asked for it.
    @inlinable @inline(__always)
    static func deliver<Owner: AnyObject, Value>(
        to entry: ObservationEntry, owner: Owner, _ observers: ObserverView, old: () -> Value, new: () -> Value
    ) {
        if entry.asksForNewValueOnly {
            // What a monitor asks for: the change built without decoding the options.
            invoke(
                entry, owner: owner, exact: observers.isExactOwner(owner), kind: .setting, old: nil, new: new(),
                indexes: nil, isPrior: false)
            return
        }
        let options = entry.options
        invoke(
            entry, owner: owner, exact: observers.isExactOwner(owner), kind: .setting,
            old: options.contains(.old) ? old() : nil, new: options.contains(.new) ? new() : nil, indexes: nil,
            isPrior: false)
    }

    @inlinable @inline(never)
    func deliverToList<Value>(
        _ key: String, owner: AnyObject, _ observers: ObserverView, old: () -> Value, new: () -> Value
    ) {
        let exact = observers.isExactOwner(owner)
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

    /// `deliverToList` with both values known. Out of line, so that the publisher that inlines
    /// the one-observer path builds no closure (nor keeps the values in memory) for this one.
    @inlinable @inline(never)
    func deliverValuesToList<Value>(_ key: String, owner: AnyObject, _ observers: ObserverView, old: Value, new: Value)
    {
        deliverToList(key, owner: owner, observers, old: { old }, new: { new })
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

    /// Calls one entry: directly when the publisher's static type is the entry's root, else
    /// typed through the key's trampoline when the published type is the observed one, else
    /// through `Any`. `exact`: whether the owner is known to be an instance of the entry's root
    /// (see `ownerType`), asked only by the trampolines.
    @inlinable @inline(__always)
    static func invoke<Owner: AnyObject, Value>(
        _ entry: ObservationEntry, owner: Owner, exact: @autoclosure () -> Bool, kind: NSKeyValueChange, old: Value?,
        new: Value?, indexes: IndexSet?, isPrior: Bool
    ) {
        entry.borrowedKey._withUnsafeGuaranteedRef { key in
            if key.valueType == ObjectIdentifier(Value.self) {
                // Only `register` makes entries: one of root `R` and value `V` is a
                // `HandlerEntry<R, V>`, whose key has `valueType` `V`. So with both identifiers
                // equal, the entry is a `HandlerEntry<Owner, Value>` and `owner` (statically an
                // `Owner`) needs no cast: one call, the handler's, instead of the trampoline's
                // and then the handler's. (`Owner` is `AnyObject` when the publisher's type is
                // not known here; no entry's root is that.)
                if entry.rootType == ObjectIdentifier(Owner.self) {
                    unsafeDowncast(entry, to: HandlerEntry<Owner, Value>.self).handler(
                        owner,
                        NSKeyValueObservedChange(
                            kind: kind, newValue: new, oldValue: old, indexes: indexes, isPrior: isPrior))
                    return
                }
                // Handed over, not lent: the trampoline moves the change out (no copy, so no
                // retain of its `indexes`). Unprotected: the slot is written once, by this
                // initialisation, so a stack protector (inlined into every publisher, taken
                // also when nobody observes) would guard nothing.
                _withUnprotectedUnsafeTemporaryAllocation(of: NSKeyValueObservedChange<Value>.self, capacity: 1) {
                    buffer in
                    let change = buffer.baseAddress.unsafelyUnwrapped
                    change.initialize(
                        to: NSKeyValueObservedChange(
                            kind: kind, newValue: new, oldValue: old, indexes: indexes, isPrior: isPrior))
                    unsafeDowncast(key, to: TypedObservedKey<Value>.self).invoke(
                        entry, owner, exact(), UnsafeMutableRawPointer(change))
                }
            } else {
                key.invokeErased(
                    entry, owner, exact(), kind, old.map { $0 as Any }, new.map { $0 as Any }, indexes, isPrior)
            }
        }
    }
}
#endif
