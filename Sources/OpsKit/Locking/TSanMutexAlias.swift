#if OPSDASH_TSAN
/// For the ThreadSanitizer run only: the package's `Mutex` is the TSan-visible twin, which
/// shadows `Synchronization.Mutex` in every file that imports OpsKit (see `TSanVisibleMutex`).
/// `.ci/mutex-imports` checks that every file of the package that uses `Mutex` imports OpsKit.
@usableFromInline package typealias Mutex<Value> = TSanVisibleMutex<Value>
#endif
