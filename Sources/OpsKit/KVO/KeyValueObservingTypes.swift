#if !canImport(ObjectiveC)
import Foundation

/// Which values a change notification carries and when it is sent; Foundation's KVO options,
/// for platforms whose Foundation has no KVO.
public struct NSKeyValueObservingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    /// The options with these bits.
    @inlinable public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Fill `newValue`.
    @inlinable public static var new: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x01) }
    /// Fill `oldValue`.
    @inlinable public static var old: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x02) }
    /// Send one notification at registration, with the current value.
    @inlinable public static var initial: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x04) }
    /// Send a notification before each change too, with `isPrior == true`.
    @inlinable public static var prior: NSKeyValueObservingOptions { NSKeyValueObservingOptions(rawValue: 0x08) }
}

/// The kind of a change, as in Foundation's KVO.
public enum NSKeyValueChange: UInt, Sendable {
    case setting = 1, insertion, removal, replacement
}

/// One change notification, as Foundation's KVO delivers it.
public struct NSKeyValueObservedChange<Value> {
    public typealias Kind = NSKeyValueChange
    /// `.setting` for properties; `.insertion`/`.removal` for a queue's `operations`.
    public let kind: Kind
    /// The value after the change, when `.new` was asked for (nil on a prior notification).
    public let newValue: Value?
    /// The value before the change, when `.old` was asked for.
    public let oldValue: Value?
    /// Positions of inserted or removed elements, for `.insertion`/`.removal`.
    public let indexes: IndexSet?
    /// True for the notification sent before the change (`.prior`).
    public let isPrior: Bool

    @inlinable
    init(kind: Kind, newValue: Value?, oldValue: Value?, indexes: IndexSet?, isPrior: Bool) {
        self.kind = kind
        self.newValue = newValue
        self.oldValue = oldValue
        self.indexes = indexes
        self.isPrior = isPrior
    }
}

extension NSKeyValueObservedChange: Sendable where Value: Sendable {}
#endif
