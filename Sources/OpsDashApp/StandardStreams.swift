#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let systemWrite = Darwin.write
#endif
import OpsKit

/// Unbuffered writes to stdout/stderr that report a closed pipe instead of crashing.
enum StandardStreams {
    /// Writes `text` to file descriptor `fd`; false if the reader went away (EPIPE) or it failed.
    @discardableResult
    static func write(_ text: String, to fd: Int32 = 1) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes one line to stderr, with control characters escaped (`\n`, `\u{1B}`) so text from
    /// files, paths or arguments can neither split the line nor reach the terminal as escapes.
    static func error(_ line: String) {
        let text = line.hasSuffix("\n") ? String(line.dropLast()) : line
        write(ControlCharacterEscaping.escape(text) + "\n", to: 2)
    }
}
