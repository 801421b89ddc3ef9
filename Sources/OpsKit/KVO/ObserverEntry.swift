#if !canImport(ObjectiveC)
import Foundation

/// One registered observer of one property: what the registry keeps and a token removes.
///
/// Immutable after init, hence `@unchecked Sendable`; the closures it holds are `@Sendable`.
@usableFromInline
class ObserverEntry: @unchecked Sendable {
    /// The observed property's name.
    @usableFromInline let key: String
    @usableFromInline let options: NSKeyValueObservingOptions

    init(key: String, options: NSKeyValueObservingOptions) {
        self.key = key
        self.options = options
    }

    /// Delivers a change whose values are type-erased (a publisher whose value type differs
    /// from the observed key path's, e.g. `Int` published for an `Int?` path).
    @usableFromInline
    func deliver(erased change: ErasedChange) {}
}

/// A change with type-erased values, for `ObserverEntry.deliver(erased:)`.
@usableFromInline
struct ErasedChange {
    @usableFromInline var kind: NSKeyValueChange
    @usableFromInline var old: Any?
    @usableFromInline var new: Any?
    @usableFromInline var indexes: IndexSet?
    @usableFromInline var isPrior: Bool

    @usableFromInline
    init(kind: NSKeyValueChange, old: Any?, new: Any?, indexes: IndexSet?, isPrior: Bool) {
        self.kind = kind
        self.old = old
        self.new = new
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

/// An observer of a property of type `Value`: changes of that type are handed over as they are,
/// without boxing or casting (the registry finds it with one class cast).
@usableFromInline
final class TypedObserverEntry<Value>: ObserverEntry, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (NSKeyValueObservedChange<Value>) -> Void

    @usableFromInline
    init(key: String, options: NSKeyValueObservingOptions, handler: @escaping @Sendable (NSKeyValueObservedChange<Value>) -> Void) {
        self.handler = handler
        super.init(key: key, options: options)
    }

    /// Delivers a typed change, keeping only the values the options asked for.
    @inlinable
    func deliver(kind: NSKeyValueChange, old: Value?, new: Value?, indexes: IndexSet?, isPrior: Bool) {
        handler(NSKeyValueObservedChange(
            kind: kind, newValue: options.contains(.new) ? new : nil,
            oldValue: options.contains(.old) ? old : nil, indexes: indexes, isPrior: isPrior))
    }

    @usableFromInline
    override func deliver(erased change: ErasedChange) {
        deliver(kind: change.kind, old: change.old.flatMap { $0 as? Value }, new: change.new.flatMap { $0 as? Value },
                indexes: change.indexes, isPrior: change.isPrior)
    }
}
#endif
