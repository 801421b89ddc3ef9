#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Points fds 1 and 2 at a log file while the screen is up, so stray prints can't corrupt it,
/// and puts them back on `restore()`.
struct OutputRedirect {
    private var savedOut: Int32 = -1
    private var savedErr: Int32 = -1

    /// Redirects stdout and stderr to the open file `log` (which stays open). Returns nil,
    /// changing nothing, if they can't be saved.
    init?(to log: Int32) {
        fflush(nil)  // all streams (stdout, stderr)
        savedOut = dup(1)
        savedErr = dup(2)
        guard savedOut >= 0, savedErr >= 0 else {
            if savedOut >= 0 { _ = closeDescriptor(savedOut) }
            if savedErr >= 0 { _ = closeDescriptor(savedErr) }
            return nil
        }
        _ = dup2(log, 1)
        _ = dup2(log, 2)
    }

    /// Puts the original stdout and stderr back; does nothing the second time.
    mutating func restore() {
        guard savedOut >= 0 else { return }
        fflush(nil)  // all streams (stdout, stderr)
        _ = dup2(savedOut, 1)
        _ = dup2(savedErr, 2)
        _ = closeDescriptor(savedOut)
        _ = closeDescriptor(savedErr)
        savedOut = -1
        savedErr = -1
    }
}

/// `close(2)`, spelled so it doesn't collide with methods named `close`.
func closeDescriptor(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
