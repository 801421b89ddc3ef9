import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Lowers the calling thread to background CPU priority (nice 19), for monitoring work that
/// must not compete with the app it watches. Elsewhere than Linux, `.background` quality of
/// service.
package func lowerThreadPriorityToBackground() {
    #if canImport(Glibc)
    // On Linux the nice value is per thread, and `who == 0` names the calling thread.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    #else
    Thread.current.qualityOfService = .background
    #endif
}
