#if !canImport(ObjectiveC)
import CReaderSlots
import Foundation
import Synchronization

/// The observers of one object; the Linux engine behind `observe(_:…)`.
///
/// Publishing with no observers costs one atomic load and allocates nothing. With observers, a
/// change takes no lock, no reference count and (on Linux with `membarrier`) no locked
/// instruction: the publisher announces itself as a reader (a plain store of this registry's
/// address in a slot of its thread; elsewhere, one atomic add), loads the current observer list
/// (an immutable value behind an atomic pointer), calls each matching observer on the
/// publishing thread, in registration order, and leaves (a plain store; or one atomic
/// subtract). Registering or removing an observer builds a new list under a lock and swaps it
/// in; a replaced list is released once no delivery is under way (by the writer, after one
/// `membarrier` system call, or by the last delivery to leave), so a writer never waits for a
/// handler, and a handler may observe or invalidate anything, this object included.
///
/// A value published with the type it is observed as reaches the handler without `Any` boxing or
/// dynamic casts of the values; the `.prior` pass is skipped unless some observer asked for it.
/// The `owner:` overloads are the fast path: the publisher passes itself (alive while it
/// publishes). The overloads without it read the owner kept at the first registration.
public final class KeyValueObserverRegistry: Sendable {
    /// What only writers touch, under `writer`.
    @usableFromInline
    struct Writer {
        // Each element is a former `current` +1, now owned by this array: handed to a
        // `Released` by `takeRetired` (dropped after unlocking) once `readers` is seen at 0.
        /// Replaced lists (or single entries) that a delivery may still be reading.
        var retired: [AnyObject] = []
        /// The observed object, for the overloads that are not told it. `unowned`, not `weak`: a
        /// weak reference gives the object a side table, which makes every retain and release of
        /// it (anywhere in the program) take the slow path. The registry belongs to its owner,
        /// whose own methods publish, so the owner is alive whenever it is read.
        unowned var owner: (any AnyObject & Sendable)?
        /// Whether `ownerType` was set by a registration; `mixedOwnerTypes` once two differed.
        var ownerTypeKnown = false
        var mixedOwnerTypes = false

        init() {}
    }

    /// Registered observers.
    @usableFromInline let count = Atomic<Int>(0)
    /// Registered observers that asked for `.prior`.
    @usableFromInline let priorCount = Atomic<Int>(0)
    // Reader count protocol (all four operations sequentially consistent; acquire/release is
    // not enough for a store followed by a load of another variable):
    // - Entering: a delivery adds 1 to `readers`, then loads `current`. A writer stores
    //   `current`, then loads `readers`. In the single order of these operations, either the
    //   writer's load comes after the delivery's add (it sees a reader and retires the old value
    //   instead of releasing it) or the delivery's load of `current` comes after the writer's
    //   store (it reads the new value). So no delivery reads a value released by `replace`.
    // - Leaving: a delivery subtracts 1, then loads `hasRetired`; a writer that retires sets
    //   `hasRetired`, then loads `readers` (`reclaimIfQuiet`). Either the writer sees 0 and
    //   releases, or the delivery sees `hasRetired` and calls `reclaim()` (which releases if
    //   the count is still 0; if not, a delivery still counted will see `hasRetired` as it
    //   leaves). A retired value is never left behind once no delivery is under way.
    // - The subtract is a read-modify-write with release semantics, and a writer's load of 0
    //   acquires it: every read a delivery made of a list happens before that list's release.
    // - The count covers all deliveries, not those of one list: a retired value waits for a
    //   moment with no delivery at all (nothing is freed early; under a constant stream of
    //   overlapping deliveries, `retired` grows until such a moment comes).
    // - ThreadSanitizer (`.ci/run`) sees these atomics and the `writer` lock, not this argument:
    //   Swift 6.3's TSan reports no access racing with a `free`, so a release made too early shows
    //   up as a crash or a failed test (`KVOEngineTests`, `KVORegistryConcurrencyTests`).
    // Reader slots (Linux, `CReaderSlots`): the same protocol with the count replaced by
    // per-thread slots, each a plain store, and the writer's side of each store-then-load pair
    // made a full barrier on every thread by `membarrier` (`opsdash_reader_slots_fence`):
    // - Entering: a delivery stores this registry's address in its thread's slot, then loads
    //   `current` (no hardware fence between). A writer stores `current`, fences, then looks for
    //   the address in every slot. The fence runs a barrier on the reader's thread: a load of
    //   `current` before it follows the slot store, which the fence made visible, so the writer
    //   sees the slot; a load after it reads the new value.
    // - Leaving: a delivery clears its slot (a release store), then loads `hasRetired`; a
    //   writer that retires sets `hasRetired`, fences, then looks at the slots: either it sees
    //   the slot clear (and its acquiring load makes every read of the delivery happen before
    //   the release), or the delivery sees `hasRetired` and calls `reclaim()`.
    // - A delivery takes the slots or the count, never both; a writer checks both. The count is
    //   the path where `membarrier` is missing or refused, for a nesting deeper than the slots
    //   (`OPSDASH_READER_SLOTS`), for a registry made with `countedReadersOnly` (a test hook),
    //   and the only path in the ThreadSanitizer build (`OPSDASH_TSAN`): TSan does not know that
    //   `membarrier` orders the plain stores, and would report them.
    // - Once any thread used a slot, each release of a replaced list costs the writer one
    //   system call (~1 µs); a writer before that (`opsdash_reader_slots_in_use` 0, fenced on
    //   the reader side) needs none.
    /// Deliveries under way that announced themselves by the count. A list swapped out is
    /// released only once this is 0 and no thread's reader slot holds this registry.
    @usableFromInline let readers = Atomic<Int>(0)
    // The tag bit: an `ObservationEntry` or `ObserverList` is a Swift heap object, whose header
    // starts with a pointer; the runtime allocates objects at least pointer-aligned (with
    // `malloc`: 16 bytes), so bit 0 of an `Unmanaged.toOpaque()` bit pattern is always 0 and is
    // free to mark a list. No object lives at address 0, so 0 means "no observers".
    // Ownership: `current` owns one +1 on the object it designates (made by `passRetained` in
    // `add` and `observers(_:)`), taken back exactly once by `takeObservers`: when `replace`
    // swaps the value out (then released after unlocking, or kept in `Writer.retired` until no
    // delivery is under way) or in `deinit`. Deliveries borrow that +1 and take none.
    /// The observers: 0 (none), the bit pattern of one `ObservationEntry` (the registry's +1), or
    /// that of an `ObserverList` with the low bit set. Replaced only under `writer`.
    @usableFromInline let current = Atomic<Int>(0)
    /// Bit pattern of the `ObjectIdentifier` of the dynamic type of every object that registered
    /// here, while they all had the same one; 0 once they differ. A publisher of exactly this type
    /// is an instance of every entry's root type, so delivery needs no dynamic cast.
    @usableFromInline let ownerType = Atomic<Int>(0)
    /// One bit per observed key-name length (`1 << (length & 63)`): a publish of a key nobody
    /// observes (most of them: an operation publishes five keys, a monitor watches one) returns
    /// after one atomic load, without announcing itself as a reader.
    @usableFromInline let observedKeyLengths = Atomic<UInt64>(0)
    /// Whether `retired` holds anything (checked by each delivery as it leaves).
    @usableFromInline let hasRetired = Atomic<Bool>(false)
    @usableFromInline let writer = Mutex(Writer())
    /// Whether deliveries always announce themselves by the count, never by a reader slot.
    @usableFromInline let countedReadersOnly: Bool

    /// Creates an empty registry (no allocation until the first observer).
    public init() {
        countedReadersOnly = false
    }

    /// A registry whose deliveries take the counted path even where reader slots work (to test
    /// that path, which is what systems without `membarrier` run).
    package init(countedReadersOnly: Bool) {
        self.countedReadersOnly = countedReadersOnly
    }

    /// Whether deliveries on this thread announce themselves in a reader slot when their
    /// registry allows it (false without `membarrier`, and in the ThreadSanitizer build).
    package static var readerSlotsWork: Bool {
        #if os(Linux) && !OPSDASH_TSAN
        // 1 is no registry's address: announcing it holds nothing back.
        let slot = opsdash_reader_enter(UnsafeRawPointer(bitPattern: 1))
        guard slot >= 0 else { return false }
        opsdash_reader_leave(slot)
        return true
        #else
        return false
        #endif
    }

    // Every entry (registered or retired) holds its registry, so this runs with `current` at 0
    // and nothing retired; the release is a safeguard, and needs no reader count: no delivery
    // can be under way (a publisher keeps its owner, and so this registry, alive).
    deinit {
        let raw = current.load(ordering: .acquiring)
        if raw != 0 { Self.releaseObservers(raw) }
    }

    /// Whether anything observes `key` (cheap when nothing observes anything).
    package func isObserved(_ key: String) -> Bool {
        guard hasObservers else { return false }
        return withObservers { observers in
            observers.contains { entry in entry.key.name == key }
        }
    }

    /// Whether some observer may observe `key` (false: certainly none); one atomic load.
    @inlinable
    func mayObserve(_ key: String) -> Bool {
        observedKeyLengths.load(ordering: .acquiring) & Self.lengthBit(key) != 0
    }

    @inlinable
    static func lengthBit(_ key: String) -> UInt64 {
        lengthBit(key.utf8.count)
    }

    /// The bit of a key whose UTF-8 length is `length` in `observedKeyLengths`.
    @inlinable
    static func lengthBit(_ length: Int) -> UInt64 {
        1 &<< UInt64(truncatingIfNeeded: length & 63)
    }

    /// Whether anything observes this object at all; one atomic load.
    /// Inlinable so that a publisher in another module checks it without generic overhead.
    @inlinable
    public var hasObservers: Bool { count.load(ordering: .acquiring) > 0 }

    /// Whether any observer asked for `.prior` notifications; one atomic load.
    @inlinable
    public var hasPriorObservers: Bool { priorCount.load(ordering: .acquiring) > 0 }

    /// Takes the registry's +1 on a `current` value.
    static func takeObservers(_ raw: Int) -> AnyObject {
        // Bit 0 clear: a single entry; set: a list (see `current`). `takeRetainedValue` turns
        // `current`'s +1 into this strong reference; the caller decides when it is dropped.
        if raw & 1 == 0 { return Unmanaged<ObservationEntry>.fromOpaque(rawPointer(raw)).takeRetainedValue() }
        return Unmanaged<ObserverList>.fromOpaque(rawPointer(raw & ~1)).takeRetainedValue()
    }

    private static func releaseObservers(_ raw: Int) {
        withExtendedLifetime(takeObservers(raw)) {}
    }

    @usableFromInline
    static func rawPointer(_ raw: Int) -> UnsafeRawPointer {
        // Only called with a non-zero value stored by `swap`.
        UnsafeRawPointer(bitPattern: raw).unsafelyUnwrapped
    }

    // MARK: Reading

    /// Runs `body` on the current observers, announced as a reader (no lock, no retain).
    @inlinable @inline(__always)
    func withObservers<R>(_ body: (ObserverView) -> R) -> R {
        #if os(Linux) && !OPSDASH_TSAN
        if !countedReadersOnly {
            // Announce in this thread's slot, then load (see "Reader slots" at `readers`).
            let slot = opsdash_reader_enter(Unmanaged.passUnretained(self).toOpaque())
            if slot >= 0 {
                defer {
                    opsdash_reader_leave(slot)
                    // Clear, then load: paired with the writer's store, fence, then look.
                    if hasRetired.load(ordering: .relaxed) { reclaim() }
                }
                // Sequentially consistent (a plain load on x86-64, as acquiring is): a set's
                // atomic exchange before it pairs with a registration's store of `current`
                // and read of the value (see `ObservedProperty.word`).
                let raw = current.load(ordering: .sequentiallyConsistent)
                return body(ObserverView(raw: raw, registry: Unmanaged.passUnretained(self)))
            }
        }
        #endif
        return withCountedObservers(body)
    }

    /// `withObservers` announced by the count (see `readers`).
    @inlinable @inline(__always)
    func withCountedObservers<R>(_ body: (ObserverView) -> R) -> R {
        // Announce, then load (see `readers`): both the order and the ordering matter.
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            readers.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            // Subtract, then load: a writer that retired something while this delivery was
            // counted either saw the count at 0 itself or is seen here (see `readers`).
            if hasRetired.load(ordering: .sequentiallyConsistent) { reclaim() }
        }
        let raw = current.load(ordering: .sequentiallyConsistent)
        return body(ObserverView(raw: raw, registry: Unmanaged.passUnretained(self)))
    }
}
#endif
