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
    ///
    /// Inlinable, so it is specialised in the publisher's module; with no observer it costs an
    /// atomic load before and after `apply`.
    @inlinable
    public func publishChange<Value>(_ key: String, old: Value, new: Value, apply: () -> Void) {
        #if canImport(ObjectiveC)
        let object = self as? NSObject
        object?.willChangeValue(forKey: key)
        apply()
        object?.didChangeValue(forKey: key)
        #else
        let observers = keyValueObservers
        observers.willChange(key, old: old, owner: self)
        apply()
        observers.didChange(key, old: old, new: new, owner: self)
        #endif
    }
}

#if !canImport(ObjectiveC)
/// Maps key paths to the property names publishers use, per concrete root type.
///
/// Key paths rooted at a subclass never equal the superclass's, so each publisher family lists
/// its observable properties once, generically (`\S.isFinished` for any `S`), and the table is
/// built and cached the first time a type is observed. A generic `\S.isFinished` is identified
/// by the property's dispatch slot, which a subclass's `\.isFinished` shares unless its class
/// overrides the property with static dispatch (a `final` class or `final override`): there the
/// key path is identified by the override's own getter and can't be matched, so the published
/// properties are `final` (and a miss is reported by `UnobservableKeyPathReporter`). Each observed key path also gets one
/// shared `ObservedKey` (name, value type, typed trampolines), so a subscription allocates only
/// its entry and its token.
public enum ObservableKeyTable {
    /// Tables by root type, keys by key path, and a small direct-mapped cache by key path
    /// identity (a key path literal outside generic code is one object, so most lookups hash a
    /// pointer, not the key path's components). Key paths are not `Sendable`, so a plain lock
    /// guards it all.
    private final class Cache: @unchecked Sendable {
        // Locking: every var below is only touched under `lock`.
        let lock = NSLock()
        var tables: [ObjectIdentifier: [AnyKeyPath: String]] = [:]
        var keys: [AnyKeyPath: ObservedKey] = [:]
        /// Slot by identity hash; each holds its key path strongly so the identity stays valid.
        var recent: [(keyPath: AnyKeyPath, key: ObservedKey)?] = Array(repeating: nil, count: 64)
    }

    private static let cache = Cache()

    /// The property name of `keyPath` for root `S`, building the table with `make` once per type.
    public static func name<S>(
        of keyPath: AnyKeyPath, root: S.Type, make: () -> [AnyKeyPath: String]
    ) -> String {
        lookupName(keyPath, root: root, make: make)
    }

    /// The shared key of `keyPath`: cached; on first use named through `names` (the root's table)
    /// and built by `make`.
    @usableFromInline
    static func observedKey(
        _ keyPath: AnyKeyPath, root: Any.Type, names: () -> [AnyKeyPath: String],
        make: (String) -> ObservedKey
    ) -> ObservedKey {
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(keyPath).hashValue) >> 4) & 63
        let found = cache.lock.withLock { () -> ObservedKey? in
            if let hit = cache.recent[slot], hit.keyPath === keyPath { return hit.key }
            guard let key = cache.keys[keyPath] else { return nil }
            cache.recent[slot] = (keyPath, key)
            return key
        }
        if let found { return found }
        let key = make(lookupName(keyPath, root: root, make: names))
        return cache.lock.withLock { () -> ObservedKey in
            let shared = cache.keys[keyPath] ?? key
            cache.keys[keyPath] = shared
            cache.recent[slot] = (keyPath, shared)
            return shared
        }
    }

    private static func lookupName(_ keyPath: AnyKeyPath, root: Any.Type, make: () -> [AnyKeyPath: String]) -> String {
        let id = ObjectIdentifier(root)
        let cached = cache.lock.withLock { cache.tables[id] }
        let table = cached ?? make()
        if cached == nil { cache.lock.withLock { cache.tables[id] = table } }
        if let name = table[keyPath] { return name }
        // A key path outside the table: a stored property's description names it. Anything
        // else (a computed property, an override in a final class, a chain) has no name to
        // match: reported, and given one no publisher uses.
        let text = String(describing: keyPath)
        if let dot = text.firstIndex(of: "."), case let name = text[text.index(after: dot)...],
            let first = name.first, first == "_" || first.isLetter,
            name.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
        {
            return String(name)
        }
        UnobservableKeyPathReporter.report(keyPath, root: root)
        return text
    }
}

extension KeyValueObservingPublisher {
    /// Registers `changeHandler` under `key`, then sends the `.initial` notification if asked.
    @inlinable
    func register<Value>(
        _ keyPath: KeyPath<Self, Value>, key: TypedObservedKey<Value>, options: NSKeyValueObservingOptions,
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let token = keyValueObservers.register(key, owner: self, options: options, handler: changeHandler)
        if options.contains(.initial) {
            let current = options.contains(.new) ? self[keyPath: keyPath] : nil
            changeHandler(
                self,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: current, oldValue: nil, indexes: nil, isPrior: false))
        }
        return token
    }
}
#endif
