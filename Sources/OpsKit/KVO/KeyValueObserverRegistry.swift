#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// The observers of one object; the Linux engine behind `observe(_:…)`.
///
/// Publishing with no observers costs one atomic load and allocates nothing. With observers, a
/// change costs one lock round-trip (to take the observer list, a retain) and a typed call per
/// observer of that key: no dictionary, no boxing. Observers are called outside the lock, on
/// the publishing thread, in registration order.
public final class KeyValueObserverRegistry: Sendable {
    @usableFromInline let entries = Mutex<[ObserverEntry]>([])
    @usableFromInline let count = Atomic<Int>(0)
    /// Observers that asked for `.prior`; the before-change pass is skipped while it is 0.
    @usableFromInline let priorCount = Atomic<Int>(0)

    public init() {}

    /// Whether anything observes `key` (cheap when nothing observes anything).
    public func isObserved(_ key: String) -> Bool {
        guard hasObservers else { return false }
        return entries.withLock { $0.contains { $0.key == key } }
    }

    /// Whether anything observes this object at all; one atomic load.
    /// Inlinable so that a publisher in another module checks it without generic overhead.
    @inlinable
    public var hasObservers: Bool { count.load(ordering: .acquiring) > 0 }

    /// Whether any observer asked for `.prior` notifications; one atomic load.
    @inlinable
    public var hasPriorObservers: Bool { priorCount.load(ordering: .acquiring) > 0 }

    func add(_ entry: ObserverEntry) {
        entries.withLock { $0.append(entry) }
        if entry.options.contains(.prior) { priorCount.add(1, ordering: .releasing) }
        count.add(1, ordering: .releasing)
    }

    func remove(_ entry: ObserverEntry) {
        let removed = entries.withLock { list -> Bool in
            guard let index = list.firstIndex(where: { $0 === entry }) else { return false }
            list.remove(at: index)
            return true
        }
        guard removed else { return }
        if entry.options.contains(.prior) { priorCount.subtract(1, ordering: .releasing) }
        count.subtract(1, ordering: .releasing)
    }

    /// The current observers (a retain of the list; called without holding any other lock).
    @inlinable
    func currentEntries() -> [ObserverEntry] {
        entries.withLock { $0 }
    }

    /// Sends the before-change notification of `key` to observers that asked for `.prior`.
    @inlinable
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value) {
        guard hasPriorObservers else { return }
        var oldValue: Value?
        for entry in currentEntries() where entry.key == key && entry.options.contains(.prior) {
            if oldValue == nil { oldValue = old() }
            deliver(to: entry, kind: .setting, old: oldValue, new: nil, indexes: nil, isPrior: true)
        }
    }

    /// Sends the change notification of `key` to its observers.
    @inlinable
    public func didChange<Value>(_ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value) {
        guard hasObservers else { return }
        var values: (old: Value, new: Value)?
        for entry in currentEntries() where entry.key == key {
            if values == nil { values = (old(), new()) }
            deliver(to: entry, kind: .setting, old: values?.old, new: values?.new, indexes: nil, isPrior: false)
        }
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`.
    @inlinable
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet
    ) {
        guard hasObservers else { return }
        var values: (elements: [Element], indexes: IndexSet)?
        for entry in currentEntries() where entry.key == key {
            if values == nil { values = (elements(), indexes()) }
            let changed = values?.elements
            deliver(to: entry, kind: kind, old: kind == .removal ? changed : nil,
                    new: kind == .insertion ? changed : nil, indexes: values?.indexes, isPrior: false)
        }
    }

    /// Hands a change to one observer: typed when it observes `Value`, else type-erased.
    @inlinable
    func deliver<Value>(to entry: ObserverEntry, kind: NSKeyValueChange, old: Value?, new: Value?, indexes: IndexSet?, isPrior: Bool) {
        if let typed = entry as? TypedObserverEntry<Value> {
            typed.deliver(kind: kind, old: old, new: new, indexes: indexes, isPrior: isPrior)
        } else {
            entry.deliver(erased: ErasedChange(
                kind: kind, old: old.map { $0 as Any }, new: new.map { $0 as Any }, indexes: indexes,
                isPrior: isPrior))
        }
    }
}
#endif
