#if OPSDASH_TSAN
/// For the ThreadSanitizer run only: this module's `Mutex` is the TSan-visible twin, which
/// shadows `Synchronization.Mutex` (see `TSanVisibleMutex`).
@usableFromInline typealias Mutex<Value> = TSanVisibleMutex<Value>
#endif
