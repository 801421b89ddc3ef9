import Foundation

/// Wakes a thread out of `poll`: a non-blocking pipe it polls next to what it reads, written to
/// by whoever stops it (`RemoteViewer.stop()`, `FleetWatcher.stop()`, `HostWatcher.stop()`) and
/// by a viewer's timers when their clock says they are due.
package final class WakePipe: Sendable {
    /// The end the reader thread polls (-1 when no pipe could be made).
    package let readEnd: Int32
    private let writeEnd: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (readEnd, writeEnd) = (-1, -1)
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    /// How long the reader thread's `poll` may wait for its socket alone: for ever when this
    /// pipe wakes it; without a pipe (out of descriptors), 500 ms, after which it looks at its
    /// timers again.
    package var pollTimeout: Int32 { readEnd >= 0 ? -1 : 500 }

    /// Makes the reader thread's `poll` return (a full pipe is already awake).
    package func wake() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = Foundation.write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    package func drain() {
        guard readEnd >= 0 else { return }
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { Foundation.read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Waits (on the reader thread) until woken, then empties the pipe.
    package func waitForWake() {
        var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, pollTimeout) < 0, errno != EINTR { return }
        drain()
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }
}
