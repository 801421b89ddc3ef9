#if OPSDASH_TSAN
import Foundation

/// `Synchronization.Mutex` rebuilt on `NSLock`, compiled only for the ThreadSanitizer run
/// (`-Xswiftc -DOPSDASH_TSAN`, see `.ci/run`).
///
/// On Linux, `Mutex` locks and unlocks with atomics and `futex` system calls inside the
/// standard library, which is not built with TSan instrumentation: TSan sees no ordering between
/// two critical sections and reports whatever a `Mutex` guards as a data race (a correct
/// `Mutex<[Int]>` counter bumped from 8 threads is flagged). `NSLock` is a `pthread_mutex_t`,
/// whose lock and unlock TSan intercepts. OpsKit's `TSanMutexAlias.swift` names this type `Mutex`
/// in OpsKit and `OpsMutex` for the rest of the package under the same flag.
@usableFromInline
package final class TSanVisibleMutex<Value>: @unchecked Sendable {
    // Locking: `value` is only touched between `lock.lock()` and `lock.unlock()` in `withLock`.
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    /// Creates the lock around `initialValue`.
    @inlinable
    package init(_ initialValue: consuming sending Value) {
        value = initialValue
    }

    /// Runs `body` with the value, holding the lock (`Mutex.withLock`'s signature).
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#endif
