import Foundation
import Synchronization

/// A value behind a spin lock, for critical sections of a few nanoseconds taken from many
/// threads (the monitor's inbox: one append per change).
///
/// Unlocking is a plain store (a `Mutex` unlock is a second atomic read-modify-write), and a
/// contended lock spins, then yields, instead of sleeping in the kernel: with `Mutex`, two
/// worker threads appending at once made one of them block in a futex and be woken again.
///
/// It lives in the module that records (not in OpsKit), so its generic `withLock` is
/// specialised and inlined at the recording call.
final class SpinLocked<Value: Sendable>: @unchecked Sendable {
    // Locking: `value` is only touched between `lock()` (a successful `exchange(true)` on
    // `locked`) and the `store(false)` that follows it, in the two `withLock`s.
    private let locked = Atomic<Bool>(false)
    /// Unchecked: the lock is what makes access exclusive (a dynamic exclusivity check here cost
    /// more than the inbox's append it guards).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return try body(&value)
    }

    /// Takes the lock, spinning (and yielding now and then) while another thread holds it.
    private func lock() {
        while locked.exchange(true, ordering: .acquiring) {
            var spins = 0
            while locked.load(ordering: .relaxed) {
                spins += 1
                if spins == 64 {
                    spins = 0
                    sched_yield()  // the holder may have been preempted: let it run
                }
            }
        }
    }

    /// Runs `body` with the value and `item`, holding the lock; `item` is moved in, not copied
    /// (the monitor's recording hands each change over this way).
    func withLock<Item, Result>(
        moving item: consuming Item, _ body: (inout Value, consuming Item) -> Result
    ) -> Result {
        lock()
        defer { locked.store(false, ordering: .releasing) }
        return body(&value, item)
    }
}
