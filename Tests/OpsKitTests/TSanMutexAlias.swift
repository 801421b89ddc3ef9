#if OPSDASH_TSAN
import OpsKit

/// For the ThreadSanitizer run only: this module's `Mutex` is OpsKit's TSan-visible twin, which
/// shadows `Synchronization.Mutex` (see `TSanVisibleMutex`).
typealias OpsMutex<Value> = TSanVisibleMutex<Value>
#endif
