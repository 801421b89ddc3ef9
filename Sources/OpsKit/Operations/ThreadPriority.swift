import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Lowers the calling thread's CPU priority to `nice` (10: yields to normal work; 19:
/// background), for monitoring work that must not compete with the app it watches. Elsewhere
/// than Linux, the nearest quality of service (`.utility`, or `.background` from 19).
package func lowerThreadPriority(nice: Int32) {
    #if canImport(Glibc)
    // On Linux the nice value is per thread, and `who == 0` names the calling thread.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
    #else
    Thread.current.qualityOfService = nice >= 19 ? .background : .utility
    #endif
}
