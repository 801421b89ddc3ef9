#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in terminal that counts `write(2)` calls: a `SOCK_SEQPACKET` socket pair keeps each
/// write a message of its own, where a pseudo-terminal merges them.
///
/// Not a terminal, so curses takes the size from terminfo (80×24 for xterm-256color) and its
/// terminal-mode calls fail harmlessly; what it writes is what it writes to a terminal.
final class WriteCounter {
    /// Why the pair couldn't be set up.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let screenSide: Int32
    private let counterSide: Int32

    init() throws(Failure) {
        var pair: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_SEQPACKET.rawValue)
        #else
        let type = SOCK_SEQPACKET
        #endif
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
            throw Failure(description: "socketpair: errno \(errno)")
        }
        screenSide = pair[0]
        counterSide = pair[1]
        _ = fcntl(counterSide, F_SETFL, fcntl(counterSide, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        _ = close(counterSide)
    }

    /// A stream on the screen's side for a screen to own (it closes it).
    func openTerminal() throws(Failure) -> UnsafeMutablePointer<FILE> {
        guard let file = fdopen(screenSide, "r+") else { throw Failure(description: "fdopen: errno \(errno)") }
        return file
    }

    /// The sizes of the writes made since the last call, in order.
    func takeWrites() -> [Int] {
        var sizes: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(counterSide, $0.baseAddress, $0.count, 0) }
            if count < 0 { break }
            sizes.append(count)
        }
        return sizes
    }
}
