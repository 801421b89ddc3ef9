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
        writeError(text, to: fd) == 0
    }

    /// Writes `text` (a listing, a help text) to stdout as the program's answer; the exit status:
    /// success, 141 quietly when the reader went away, or 3 with one line on stderr naming
    /// `what` and the reason (as headless output reports a failed write). `stdoutClosed`:
    /// standard output was closed when `opsdash` started (it reads /dev/null since).
    static func answer(_ text: String, what: String, stdoutClosed: Bool) -> ExitStatus {
        switch stdoutClosed ? EBADF : writeError(text, to: 1) {
        case 0: return .success
        case EPIPE: return .brokenPipe
        case let code:
            error("opsdash: cannot write \(what) to standard output: \(String(cString: strerror(code)))")
            return .outputFailed
        }
    }

    /// Writes `text` to `fd`; 0, or the errno of the write that failed.
    private static func writeError(_ text: String, to fd: Int32) -> Int32 {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return systemWrite(fd, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Writes one line to stderr, with control characters escaped (`\n`, `\u{1B}`) so text from
    /// files, paths or arguments can neither split the line nor reach the terminal as escapes.
    static func error(_ line: String) {
        let text = line.hasSuffix("\n") ? String(line.dropLast()) : line
        write(ControlCharacterEscaping.escape(text) + "\n", to: 2)
    }
}
