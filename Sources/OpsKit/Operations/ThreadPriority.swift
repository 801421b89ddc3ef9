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

/// Names the calling thread for the system (`ps -L`, `top -H`, /proc/…/comm; at most 15
/// bytes on Linux): Foundation's `Thread.name` alone does not reach it there.
package func nameCurrentThread(_ name: String) {
    Thread.current.name = name
    #if canImport(Glibc)
    // What `pthread_setname_np` does (Swift does not see it without _GNU_SOURCE).
    guard let comm = FileHandle(forWritingAtPath: "/proc/thread-self/comm") else { return }
    try? comm.write(contentsOf: Data(name.utf8.prefix(15)))
    try? comm.close()
    #endif
}
