#if !canImport(ObjectiveC)
import Foundation
import Synchronization

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
    /// The registry whose `ownerType` `isExactOwner` reads (nil: never exact).
    @usableFromInline let registry: Unmanaged<KeyValueObserverRegistry>?

    // Holds no reference: `single` and `list` borrow `current`'s +1, valid only while the
    // reader that made this view is counted in `readers` (or under `writer`); `registry` is
    // the one that made it, alive while it delivers.
    @inlinable @inline(__always)
    init(raw: Int, registry: Unmanaged<KeyValueObserverRegistry>?) {
        self.registry = registry
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
    ///
    /// Loads the registry's `ownerType` here, when a trampoline asks, not when the view is
    /// made. Read after the observers were: `ownerType` only ever goes from 0 (none yet) to
    /// one type, then to 0 for good, so a type read now was every registered owner's type when
    /// the observers were read.
    @inlinable
    func isExactOwner(_ owner: AnyObject) -> Bool {
        guard let registry else { return false }
        let ownerType = registry._withUnsafeGuaranteedRef { $0.ownerType.load(ordering: .acquiring) }
        return ownerType != 0 && ownerType == Int(bitPattern: ObjectIdentifier(type(of: owner)))
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
