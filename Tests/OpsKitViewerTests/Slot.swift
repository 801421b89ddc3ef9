import OpsKit

/// A value another thread sets and a test reads (what a blocking call answered).
final class Slot<Value: Sendable>: Sendable {
    private let value = OpsMutex<Value?>(nil)

    /// The value set last, nil before.
    var current: Value? { value.withLock { $0 } }

    /// Sets (or with nil clears) the value.
    func set(_ new: Value?) { value.withLock { $0 = new } }
}
