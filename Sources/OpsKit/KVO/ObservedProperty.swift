import Synchronization

/// A thread-safe stored value that publishes its changes under a property name: how an OpsKit
/// class declares an observable stored property in one line
/// (`let _bytes = ObservedProperty("completedBytes", 0 as Int64)`) and exposes it read-only.
///
/// A trivially copyable value of at most 8 bytes (`Int`, `Int64`, `Double`, `Bool`, a plain enum)
/// lives in an atomic word: a set is one atomic exchange, a read one atomic load. Any other
/// value lives under a `Mutex`.
public final class ObservedProperty<Value: Sendable>: @unchecked Sendable {
    // Locking: `stored` is read and written only inside `lock.withLock` (`withStored`), and
    // only when the value is not a word; `word` is atomic; the rest is set once, in `init`.

    /// The published property name.
    public let name: String
    /// `name.utf8.count`, kept: a publish checks the registry's observed key lengths and each
    /// observer's key against it without measuring the name again.
    @usableFromInline let nameLength: Int
    /// Guards `stored`. A lock of its own type rather than a `Mutex<Value>`: this generic
    /// class's `deinit` then looks up no generic metadata (two lookups, ~850 instructions, for
    /// each property of every operation freed). It holds a byte, not `Void`: ThreadSanitizer
    /// took the zero-sized values of two such locks, at one address, for one variable raced on.
    @usableFromInline let lock: Mutex<Bool>
    /// The value, unless it is a word (`isWord`): then this keeps the first value, never read.
    @exclusivity(unchecked) @usableFromInline var stored: Value
    /// The value's bytes, when it is a word (`isWord`); else unused.
    @usableFromInline let word: Atomic<UInt64>

    // Memory ordering of the word path. Every access to `word` is sequentially consistent; on
    // x86-64 a load or store is a plain `mov` and the exchange an `xchg`, the one locked
    // instruction of a set.
    // - Old and new values: each set takes its old value from the exchange that stores its new
    //   one, so concurrent sets report a chain with no value lost or reported twice, as under
    //   the lock.
    // - A set and a registration with `.initial`: the set exchanges, then its delivery loads the
    //   registry's `current`; a registration stores `current`, then reads the value for its
    //   initial notification (`KeyValueObservingPublisher.register`). With all four operations
    //   in one total order, either the delivery sees the new observer or the initial read sees
    //   the new value, so an observer never misses a change (the store-then-load pair the lock
    //   ordered before). The delivery's loads of `current` are sequentially consistent for this.
    // - A read returns a value some set stored (never torn: one atomic word).

    /// Whether `Value` lives in `word`: trivially copyable and at most 8 bytes (a constant once
    /// specialised, so each path compiles to one branch-free body).
    @inlinable
    static var isWord: Bool { _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt64>.size }

    /// `value`'s bytes in a word (the rest zero); only when `isWord`. A value of 1, 2, 4 or 8
    /// bytes is reinterpreted in registers; any other size goes through memory.
    @inlinable @inline(__always)
    static func bits(_ value: Value) -> UInt64 {
        switch MemoryLayout<Value>.size {
        case 8: return unsafeBitCast(value, to: UInt64.self)
        case 4: return UInt64(unsafeBitCast(value, to: UInt32.self))
        case 2: return UInt64(unsafeBitCast(value, to: UInt16.self))
        case 1: return UInt64(unsafeBitCast(value, to: UInt8.self))
        default:
            var bits: UInt64 = 0
            withUnsafeMutableBytes(of: &bits) { $0.storeBytes(of: value, as: Value.self) }
            return bits
        }
    }

    /// The value whose bytes `bits` holds; only when `isWord`.
    @inlinable @inline(__always)
    static func value(_ bits: UInt64) -> Value {
        switch MemoryLayout<Value>.size {
        case 8: return unsafeBitCast(bits, to: Value.self)
        case 4: return unsafeBitCast(UInt32(truncatingIfNeeded: bits), to: Value.self)
        case 2: return unsafeBitCast(UInt16(truncatingIfNeeded: bits), to: Value.self)
        case 1: return unsafeBitCast(UInt8(truncatingIfNeeded: bits), to: Value.self)
        default:
            // A `UInt64` is aligned for any value of at most its size.
            return withUnsafeBytes(of: bits) { $0.baseAddress.unsafelyUnwrapped.load(as: Value.self) }
        }
    }

    /// Creates the property with its published `name` and first value.
    public init(_ name: String, _ initial: Value) {
        self.name = name
        self.nameLength = name.utf8.count
        self.lock = Mutex(false)
        self.stored = initial
        self.word = Atomic(Self.isWord ? Self.bits(initial) : 0)
    }

    /// The current value.
    @inlinable
    public var value: Value {
        if Self.isWord { return Self.value(word.load(ordering: .sequentiallyConsistent)) }
        return withStored { $0 }
    }

    /// Runs `body` on `stored` under the lock (the value when it is not a word).
    @inlinable @inline(__always)
    func withStored<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { _ in body(&stored) }
    }

    /// Stores `newValue` and returns the value it replaced (one atomic exchange for a word, else
    /// one swap under the lock).
    @inlinable @inline(__always)
    func exchange(_ newValue: Value) -> Value {
        if Self.isWord {
            return Self.value(word.exchange(Self.bits(newValue), ordering: .sequentiallyConsistent))
        }
        return withStored { value -> Value in
            let old = value
            value = newValue
            return old
        }
    }

    /// Stores `newValue` and publishes the change through `owner`.
    ///
    /// Inlined and specialised in the caller. Unless an observer asked for `.prior`, this is one
    /// exchange (atomic, or under the lock), then the change notification (one atomic load when
    /// nobody observes, else one registry snapshot and a typed call per observer). An observer
    /// that registers meanwhile still gets the change: the check comes after the store.
    @inlinable @inline(__always)
    public func set(_ newValue: Value, publishingOn owner: some KeyValueObservingPublisher) {
        #if !canImport(ObjectiveC)
        let observers = owner.keyValueObservers
        if !observers.hasPriorObservers {
            let old = exchange(newValue)
            observers.didChange(name, length: nameLength, old: old, new: newValue, owner: owner)
            return
        }
        #endif
        publish(newValue, on: owner)
    }

    /// Changes the value with `body` and publishes the change through `owner`, outside any lock;
    /// publishes nothing when `body` left the value equal. For a word, `body` may run more than
    /// once (again on the newer value when another thread set it meanwhile); the change
    /// published is the one stored.
    @inlinable
    public func update(publishingOn owner: some KeyValueObservingPublisher, _ body: (inout Value) -> Void)
    where Value: Equatable {
        #if !canImport(ObjectiveC)
        let observers = owner.keyValueObservers
        if !observers.hasPriorObservers {
            let (old, new) = exchange(updatedBy: body)
            if old != new { observers.didChange(name, length: nameLength, old: old, new: new, owner: owner) }
            return
        }
        #endif
        var next = value
        body(&next)
        if next != value { publish(next, on: owner) }
    }

    /// Applies `body` to the value as one atomic step; returns the old and the new value.
    @inlinable
    func exchange(updatedBy body: (inout Value) -> Void) -> (old: Value, new: Value) {
        if Self.isWord {
            var expected = word.load(ordering: .sequentiallyConsistent)
            while true {
                var next = Self.value(expected)
                body(&next)
                let (exchanged, found) = word.compareExchange(
                    expected: expected, desired: Self.bits(next), ordering: .sequentiallyConsistent)
                if exchanged { return (Self.value(expected), next) }
                expected = found
            }
        }
        return withStored { value -> (Value, Value) in
            let old = value
            body(&value)
            return (old, value)
        }
    }

    /// The full sequence: prior notification, store, change notification.
    @inlinable
    func publish(_ newValue: Value, on owner: some KeyValueObservingPublisher) {
        let old = value
        owner.publishChange(name, old: old, new: newValue) {
            if Self.isWord {
                word.store(Self.bits(newValue), ordering: .sequentiallyConsistent)
            } else {
                withStored { $0 = newValue }
            }
        }
    }
}
