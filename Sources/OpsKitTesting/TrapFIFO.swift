import Foundation

/// A FIFO for a hostile peer to name as its shared stream: `open` on it blocks a reader until a
/// writer comes, so a viewer that opened it would hang. `release()` (or dropping the value)
/// opens it for writing once, which lets go of any reader stuck there, whatever the test saw.
package final class TrapFIFO {
    /// The FIFO's path.
    package let path: String

    /// Makes the FIFO `name` in `directory`; throws when `mkfifo` fails.
    package init(in directory: String, name: String = "stream.fifo") throws {
        path = directory + "/" + name
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Lets go of a reader stuck opening the FIFO.
    package func release() {
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
    }

    deinit { release() }
}
