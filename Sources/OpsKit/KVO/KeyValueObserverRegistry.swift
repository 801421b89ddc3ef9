#if !canImport(ObjectiveC)
import Foundation
import Synchronization

/// The observers of one object, by property name; the Linux engine behind `observe(_:…)`.
///
/// Publishing with no observers costs one atomic load and allocates nothing. Observers are
/// called outside the registry's lock, on the publishing thread, in registration order.
public final class KeyValueObserverRegistry: Sendable {
    /// What a delivery tells one observer; values are type-erased and cast back by the entry.
    struct Delivery {
        var kind: NSKeyValueChange
        var old: Any?
        var new: Any?
        var indexes: IndexSet?
        var isPrior: Bool
    }

    struct Entry: Sendable {
        var id: UInt64
        var options: NSKeyValueObservingOptions
        var deliver: @Sendable (Delivery) -> Void
    }

    private struct State {
        var nextID: UInt64 = 0
        var entries: [String: [Entry]] = [:]
    }

    private let state = Mutex(State())
    @usableFromInline let count = Atomic<Int>(0)

    public init() {}

    /// Whether anything observes `key` (cheap when nothing observes anything).
    public func isObserved(_ key: String) -> Bool {
        guard count.load(ordering: .acquiring) > 0 else { return false }
        return state.withLock { $0.entries[key]?.isEmpty == false }
    }

    /// Whether anything observes this object at all; one atomic load.
    /// Inlinable so that a publisher in another module checks it without generic overhead.
    @inlinable
    public var hasObservers: Bool { count.load(ordering: .acquiring) > 0 }

    func add(_ key: String, options: NSKeyValueObservingOptions, deliver: @escaping @Sendable (Delivery) -> Void) -> UInt64 {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.entries[key, default: []].append(Entry(id: state.nextID, options: options, deliver: deliver))
            return state.nextID
        }
        count.add(1, ordering: .releasing)
        return id
    }

    func remove(_ key: String, id: UInt64) {
        let removed = state.withLock { state -> Bool in
            guard var list = state.entries[key], let index = list.firstIndex(where: { $0.id == id }) else {
                return false
            }
            list.remove(at: index)
            state.entries[key] = list.isEmpty ? nil : list
            return true
        }
        if removed { count.subtract(1, ordering: .releasing) }
    }

    /// Sends the before-change notification of `key` to observers that asked for `.prior`.
    public func willChange<Value>(_ key: String, old: @autoclosure () -> Value) {
        guard hasObservers else { return }
        let targets = entries(key).filter { $0.options.contains(.prior) }
        guard !targets.isEmpty else { return }
        let oldValue = old()
        for entry in targets {
            entry.deliver(Delivery(
                kind: .setting, old: entry.options.contains(.old) ? oldValue : nil, new: nil,
                indexes: nil, isPrior: true))
        }
    }

    /// Sends the change notification of `key` to its observers.
    public func didChange<Value>(_ key: String, old: @autoclosure () -> Value, new: @autoclosure () -> Value) {
        guard hasObservers else { return }
        let targets = entries(key)
        guard !targets.isEmpty else { return }
        let oldValue = old()
        let newValue = new()
        for entry in targets {
            entry.deliver(Delivery(
                kind: .setting, old: entry.options.contains(.old) ? oldValue : nil,
                new: entry.options.contains(.new) ? newValue : nil, indexes: nil, isPrior: false))
        }
    }

    /// Sends a to-many change (`.insertion` or `.removal`) of `key`: `elements` are the inserted
    /// (as new) or removed (as old) elements, at `indexes`.
    public func didChangeElements<Element>(
        _ key: String, kind: NSKeyValueChange, elements: @autoclosure () -> [Element],
        indexes: @autoclosure () -> IndexSet
    ) {
        guard hasObservers else { return }
        let targets = entries(key)
        guard !targets.isEmpty else { return }
        let changed = elements()
        let positions = indexes()
        for entry in targets {
            let wantsValues = entry.options.contains(kind == .removal ? .old : .new)
            entry.deliver(Delivery(
                kind: kind, old: kind == .removal && wantsValues ? changed : nil,
                new: kind == .insertion && wantsValues ? changed : nil, indexes: positions,
                isPrior: false))
        }
    }

    private func entries(_ key: String) -> [Entry] {
        state.withLock { $0.entries[key] ?? [] }
    }
}
#endif
