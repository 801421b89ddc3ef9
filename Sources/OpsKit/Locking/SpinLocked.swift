import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a spin lock, for critical sections of a few nanoseconds taken from many
/// threads (the monitor's inbox: one append per change).
///
/// Unlocking is a plain store (a `Mutex` unlock is a second atomic read-modify-write), and a
/// contended lock spins, then yields, instead of sleeping in the kernel: with `Mutex`, two
/// worker threads appending at once made one of them block in a futex and be woken again.
package final class SpinLocked<Value: Sendable>: @unchecked Sendable {
    // Locking: `value` is only touched between a successful `exchange(true)` on `locked` and
    // the `store(false)` that follows, in `withLock`.
    private let locked = Atomic<Bool>(false)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
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
        defer { locked.store(false, ordering: .releasing) }
        return try body(&value)
    }
}
