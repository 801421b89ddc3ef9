import Foundation
import Synchronization

/// An OpsKit object whose properties can be observed with `observe(_:options:changeHandler:)`.
///
/// On macOS this is Foundation's KVO; on Linux, where swift-corelibs-foundation has none, OpsKit
/// delivers the same notifications itself through `keyValueObservers`.
public protocol KeyValueObservingPublisher: AnyObject, Sendable {
    #if !canImport(ObjectiveC)
    /// This object's observers (Linux engine).
    var keyValueObservers: KeyValueObserverRegistry { get }
    #endif
}

extension KeyValueObservingPublisher {
    /// Publishes a change of property `key` from `old` to `new`: the prior notification, then
    /// `apply()` (which must store the new value), then the change notification. Call it
    /// without holding the lock that `apply` takes.
    public func publishChange<Value>(_ key: String, old: Value, new: Value, apply: () -> Void) {
        #if canImport(ObjectiveC)
        let object = self as? NSObject
        object?.willChangeValue(forKey: key)
        apply()
        object?.didChangeValue(forKey: key)
        #else
        keyValueObservers.willChange(key, old: old)
        apply()
        keyValueObservers.didChange(key, old: old, new: new)
        #endif
    }
}

#if !canImport(ObjectiveC)
/// Maps key paths to the property names publishers use, per concrete root type.
///
/// Key paths rooted at a subclass never equal the superclass's, so each publisher family lists
/// its observable properties once, generically (`\S.isFinished` for any `S`), and the table is
/// built and cached the first time a type is observed.
public enum ObservableKeyTable {
    /// Tables by root type. Key paths are not `Sendable`, so a plain lock guards the dictionary.
    private final class Cache: @unchecked Sendable {
        // Locking: `tables` is only touched under `lock`.
        private let lock = NSLock()
        private var tables: [ObjectIdentifier: [AnyKeyPath: String]] = [:]

        func table(_ id: ObjectIdentifier) -> [AnyKeyPath: String]? {
            lock.withLock { tables[id] }
        }

        func store(_ table: [AnyKeyPath: String], for id: ObjectIdentifier) {
            lock.withLock { tables[id] = table }
        }
    }

    private static let cache = Cache()

    /// The property name of `keyPath` for root `S`, building the table with `make` once per type.
    public static func name<S>(
        of keyPath: AnyKeyPath, root: S.Type, make: () -> [AnyKeyPath: String]
    ) -> String {
        let id = ObjectIdentifier(root)
        if let table = cache.table(id), let name = table[keyPath] { return name }
        let table = make()
        cache.store(table, for: id)
        // A key path outside the table: a stored property's description names it.
        return table[keyPath] ?? fallbackName(keyPath)
    }

    private static func fallbackName(_ keyPath: AnyKeyPath) -> String {
        let text = String(describing: keyPath)
        guard let dot = text.firstIndex(of: ".") else { return text }
        return String(text[text.index(after: dot)...])
    }
}

extension KeyValueObservingPublisher {
    /// Registers `changeHandler` for property `name`, read through `keyPath`; the shared engine
    /// behind every `observe` overload. Inlinable, so the delivery closure is specialised for
    /// the observer's types in the observer's module.
    @inlinable
    public func registerObservation<Value>(
        _ keyPath: KeyPath<Self, Value>, name: String, options: NSKeyValueObservingOptions,
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        // Not weak: an object's observers are only called from its own publishing code, which
        // runs while the object is alive (a weak reference would also slow every retain and
        // release of the object, and a checked unowned one costs two atomics per delivery).
        // Publishing through a registry kept after its object died is the one misuse this
        // does not survive; `keyValueObservers` is for the object's own code.
        let entry = TypedObserverEntry<Value>(key: name, options: options) { [unowned(unsafe) self] change in
            changeHandler(self, change)
        }
        return register(entry, initial: options.contains(.initial) ? { [unowned self] in
            changeHandler(self, NSKeyValueObservedChange(
                kind: .setting, newValue: options.contains(.new) ? self[keyPath: keyPath] : nil, oldValue: nil,
                indexes: nil, isPrior: false))
        } : nil)
    }

    /// Adds `entry` to this object's observers, sends the `.initial` notification, and returns
    /// the token that removes it.
    @usableFromInline
    func register(_ entry: ObserverEntry, initial: (() -> Void)?) -> NSKeyValueObservation {
        let registry = keyValueObservers
        registry.add(entry)
        initial?()
        return NSKeyValueObservation(registry: registry, entry: entry)
    }
}
#endif
