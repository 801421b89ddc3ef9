#if OPSDASH_TSAN
/// For the ThreadSanitizer run only: OpsKit's `Mutex` is the TSan-visible twin, which shadows
/// `Synchronization.Mutex` in this module (see `TSanVisibleMutex`).
@usableFromInline typealias Mutex<Value> = TSanVisibleMutex<Value>

/// The package's lock: `Synchronization.Mutex`, or in the ThreadSanitizer run its TSan-visible
/// twin. Every module but OpsKit locks with `OpsMutex` (`.ci/mutex-imports` checks), because an
/// imported type alias cannot shadow `Synchronization.Mutex` in a type position.
package typealias OpsMutex<Value> = TSanVisibleMutex<Value>
#else
import Synchronization

/// The package's lock: `Synchronization.Mutex`, or in the ThreadSanitizer run its TSan-visible
/// twin. Every module but OpsKit locks with `OpsMutex` (`.ci/mutex-imports` checks), because an
/// imported type alias cannot shadow `Synchronization.Mutex` in a type position.
package typealias OpsMutex<Value> = Synchronization.Mutex<Value>
#endif
