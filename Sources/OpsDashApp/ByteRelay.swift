import Foundation

/// Copies bytes both ways between a viewer's stream (`input`, `output`: `opsdash relay`'s
/// standard input and output, an `ssh` channel) and an app's socket until either side ends.
/// Each direction holds at most `bufferLimit` bytes: a side that stops reading stops the reading
/// of the other (the app's publisher then treats the viewer as slow); bytes that wait longer than
/// `stallLimit` for a side to take them end the relay.
struct ByteRelay {
    /// How the relay ended.
    enum End: Equatable {
        /// A side closed its end (said: which), everything read was passed on.
        case closed(String)
        /// A side failed or stalled (said: why).
        case broken(String)
    }

    /// The most bytes waiting in each direction.
    var bufferLimit = 65_536
    /// How long bytes may wait for a side that takes none of them.
    var stallLimit: Duration = .seconds(30)

    /// One direction: bytes read from `from`, waiting to be written to `to`.
    private struct Lane {
        let from: Int32
        let to: Int32
        let name: String
        var waiting: [UInt8] = []
        var open = true
    }

    /// Runs until a side ends; `output` and `socket` are made non-blocking.
    func run(input: Int32, output: Int32, socket: Int32) -> End {
        for descriptor in [output, socket] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        var up = Lane(from: input, to: socket, name: "the viewer")
        var down = Lane(from: socket, to: output, name: "the app")
        var lastProgress = ContinuousClock.now
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            for lane in [up, down] where !lane.open && lane.waiting.isEmpty {
                return .closed("\(lane.name) closed the connection")
            }
            var fds: [pollfd] = []
            for lane in [up, down] {
                if lane.open, lane.waiting.count < bufferLimit {
                    fds.append(pollfd(fd: lane.from, events: Int16(POLLIN), revents: 0))
                }
                if !lane.waiting.isEmpty { fds.append(pollfd(fd: lane.to, events: Int16(POLLOUT), revents: 0)) }
            }
            let waiting = !up.waiting.isEmpty || !down.waiting.isEmpty
            if waiting, ContinuousClock.now - lastProgress > stallLimit {
                return .broken("a side took none of the waiting bytes for \(stallLimit)")
            }
            let ready = poll(&fds, nfds_t(fds.count), waiting ? 1_000 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .broken("poll: \(String(cString: strerror(errno)))")
            }
            for entry in fds where entry.revents != 0 {
                for index in 0..<2 {
                    var lane = index == 0 ? up : down
                    defer { if index == 0 { up = lane } else { down = lane } }
                    if entry.fd == lane.from, entry.events & Int16(POLLIN) != 0 {
                        let count = chunk.withUnsafeMutableBytes {
                            read(lane.from, $0.baseAddress, min($0.count, bufferLimit - lane.waiting.count))
                        }
                        if count > 0 {
                            lane.waiting.append(contentsOf: chunk[0..<count])
                        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                            lane.open = false
                        }
                    }
                    if entry.fd == lane.to, entry.events & Int16(POLLOUT) != 0, !lane.waiting.isEmpty {
                        let sent = lane.waiting.withUnsafeBytes { Foundation.write(lane.to, $0.baseAddress, $0.count) }
                        if sent > 0 {
                            lane.waiting.removeFirst(sent)
                            lastProgress = ContinuousClock.now
                        } else if sent < 0, errno != EINTR, errno != EAGAIN {
                            let other = index == 0 ? "the app" : "the viewer"
                            return .broken("writing to \(other): \(String(cString: strerror(errno)))")
                        }
                    }
                }
            }
        }
    }
}
