#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// A registered observation; observing stops on `invalidate()` or when this token is released,
/// as with Foundation's `NSKeyValueObservation`.
///
/// The token is one small object pointing at its registry entry; the entry (held by the
/// registry) carries the typed handler.
public final class NSKeyValueObservation: Sendable {
    @usableFromInline let entry: ObservationEntry

    @usableFromInline
    init(entry: ObservationEntry) {
        self.entry = entry
    }

    /// Stops observing. Safe from any thread, any number of times, and from inside a handler
    /// (its own or another's): once it returns, this observation gets no further change.
    public func invalidate() {
        guard entry.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        entry.registry.remove(entry)
    }

    deinit { invalidate() }
}

/// What every observation of one property through one key path shares: the property's name, its
/// value type, and the trampolines that call an entry's typed handler. Made once per key path
/// (cached by `ObservableKeyTable`), so a subscription does not pay for it.
///
/// Unchecked `Sendable` only because the class is not final (`TypedObservedKey` adds the typed
/// trampoline): every stored property is an immutable `let` of a `Sendable` type.
@usableFromInline
class ObservedKey: @unchecked Sendable {
    /// Calls an entry's handler with type-erased values: the fallback when the published value
    /// type differs from the observed one (values are cast back with `as?`).
    @usableFromInline typealias ErasedInvoke =
        @Sendable (
            ObservationEntry, AnyObject, Bool, NSKeyValueChange, Any?, Any?, IndexSet?, Bool
        ) -> Void

    /// The published property name.
    @usableFromInline let name: String
    /// `name.utf8.count`, kept: a delivery compares it with the published key's before the names.
    @usableFromInline let nameLength: Int
    /// `ObjectIdentifier` of the observed value type: a publisher of that exact type takes the
    /// typed path (no `Any`, no dynamic cast of the values).
    @usableFromInline let valueType: ObjectIdentifier
    @usableFromInline let invokeErased: ErasedInvoke

    @usableFromInline
    init(name: String, valueType: ObjectIdentifier, invokeErased: @escaping ErasedInvoke) {
        self.name = name
        self.nameLength = name.utf8.count
        self.valueType = valueType
        self.invokeErased = invokeErased
    }
}

/// An `ObservedKey` for values of type `Value`, with the typed trampoline.
@usableFromInline
final class TypedObservedKey<Value>: ObservedKey, @unchecked Sendable {
    /// Calls an entry's handler: entry, owner, whether the owner is known to be an instance of
    /// the root (no cast needed), and the change (an initialised `NSKeyValueObservedChange<Value>`
    /// that the trampoline moves out, leaving the memory uninitialised; passed by address: a
    /// signature free of `Value` needs no reabstraction thunk around each call).
    @usableFromInline typealias Invoke = @Sendable (ObservationEntry, AnyObject, Bool, UnsafeMutableRawPointer) -> Void

    @usableFromInline let invoke: Invoke

    @usableFromInline
    init(name: String, invoke: @escaping Invoke, invokeErased: @escaping ErasedInvoke) {
        self.invoke = invoke
        super.init(name: name, valueType: ObjectIdentifier(Value.self), invokeErased: invokeErased)
    }

    /// The key of property `name` observed on `Root`: its trampolines are specialised where
    /// this is inlined (the observer's module), and cast the owner to `Root` with one class cast.
    @inlinable
    static func make<Root: AnyObject>(name: String, root: Root.Type) -> TypedObservedKey<Value> {
        TypedObservedKey(
            name: name,
            invoke: { entry, owner, exact, address in
                let change = address.assumingMemoryBound(to: NSKeyValueObservedChange<Value>.self).move()
                // Each branch passes the owner straight through (borrowed: no retain on the
                // exact path, where the registry has proven the owner's type).
                if exact {
                    unsafeDowncast(entry, to: HandlerEntry<Root, Value>.self).handler(
                        unsafeDowncast(owner, to: Root.self), change)
                } else if let root = owner as? Root {
                    unsafeDowncast(entry, to: HandlerEntry<Root, Value>.self).handler(root, change)
                }
            },
            invokeErased: { entry, owner, _, kind, old, new, indexes, isPrior in
                guard let root = owner as? Root else { return }
                unsafeDowncast(entry, to: HandlerEntry<Root, Value>.self).handler(
                    root,
                    NSKeyValueObservedChange(
                        kind: kind, newValue: new.flatMap { $0 as? Value },
                        oldValue: old.flatMap { $0 as? Value }, indexes: indexes, isPrior: isPrior))
            })
    }
}

/// One registered observer, held by its registry while active. Its key's trampolines know the
/// concrete `HandlerEntry` type, so delivering needs no cast of the entry.
///
/// Unchecked `Sendable` only because the class is not final (`HandlerEntry` adds the handler):
/// every stored property is a `let` of a `Sendable` type (the key is held as a retained
/// `Unmanaged`, released only in `deinit`), and `active` is an `Atomic`.
@usableFromInline
class ObservationEntry: @unchecked Sendable {
    @usableFromInline let registry: KeyValueObserverRegistry
    /// The key, retained by this entry (released in `deinit`) and read by deliveries without a
    /// retain: a retain would write the key's header, on the cache line its name sits on, which
    /// every publishing thread reads.
    @usableFromInline let borrowedKey: Unmanaged<ObservedKey>
    /// `NSKeyValueObservingOptions.rawValue` (the four options fit in a byte).
    @usableFromInline let optionBits: UInt8
    /// Cleared by `invalidate()`; a delivery already under way skips an inactive entry.
    @usableFromInline let active = Atomic<Bool>(true)
    /// `ObjectIdentifier` of the observed root type (`HandlerEntry`'s `Root`): a publisher whose
    /// static type is this one calls the handler without the key's trampoline.
    @usableFromInline let rootType: ObjectIdentifier

    @usableFromInline
    init(
        registry: KeyValueObserverRegistry, key: ObservedKey, options: NSKeyValueObservingOptions,
        rootType: ObjectIdentifier
    ) {
        self.registry = registry
        self.rootType = rootType
        self.borrowedKey = Unmanaged.passRetained(key)
        self.optionBits = UInt8(truncatingIfNeeded: options.rawValue)
    }

    deinit {
        borrowedKey.release()
    }

    /// The observed key.
    @usableFromInline final var key: ObservedKey { borrowedKey.takeUnretainedValue() }

    @inlinable final var options: NSKeyValueObservingOptions {
        NSKeyValueObservingOptions(rawValue: UInt(optionBits))
    }

    /// Whether a change reaches this observer with its new value and not its old one (`.new`
    /// without `.old`; `.initial` and `.prior` aside).
    @inlinable final var asksForNewValueOnly: Bool {
        let values = UInt8(truncatingIfNeeded: NSKeyValueObservingOptions([.new, .old]).rawValue)
        return optionBits & values == UInt8(truncatingIfNeeded: NSKeyValueObservingOptions.new.rawValue)
    }

    /// Whether this entry, still active, observes `key` (and asked for `.prior`, with `prior`).
    @inlinable @inline(__always)
    final func wants(_ key: String, prior: Bool) -> Bool {
        // Plain `if`s, not `&&`: its right-hand autoclosures were left as calls on this path.
        if prior, optionBits & UInt8(NSKeyValueObservingOptions.prior.rawValue) == 0 { return false }
        return wants(key, length: key.utf8.count)
    }

    /// Whether this entry, still active, observes `key`, whose UTF-8 length is `length`.
    @inlinable @inline(__always)
    final func wants(_ key: String, length: Int) -> Bool {
        let (name, nameLength) = borrowedKey._withUnsafeGuaranteedRef { ($0.name, $0.nameLength) }
        if nameLength != length { return false }  // O(1): most keys differ in length
        if name != key { return false }
        return active.load(ordering: .acquiring)
    }
}

/// An entry with its handler, typed by the observed root and value.
@usableFromInline
final class HandlerEntry<Root: AnyObject, Value>: ObservationEntry, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void

    @inlinable
    init(
        registry: KeyValueObserverRegistry, key: TypedObservedKey<Value>, options: NSKeyValueObservingOptions,
        handler: @escaping @Sendable (Root, NSKeyValueObservedChange<Value>) -> Void
    ) {
        self.handler = handler
        super.init(registry: registry, key: key, options: options, rootType: ObjectIdentifier(Root.self))
    }
}
#endif
