import Foundation

#if canImport(Glibc)
import Glibc

private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin

private let systemRead = Darwin.read
#endif

/// Reads a scenario file in one piece, refusing what is not a regular file or is over
/// `ScenarioLimits.maxFileBytes` before reading any of it.
///
/// The file is opened non-blocking (a FIFO cannot hang the open), checked with `fstat`, and read
/// straight into one buffer of its size: no second copy, and a device such as `/dev/zero` or a
/// file that grows while it is read cannot make it allocate more than the limit.
enum ScenarioFileReader {
    /// The file's bytes, or the problem (`file not found`, `is a directory, not a file`, …).
    static func read(path: String) throws(ScenarioProblem) -> Data {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ScenarioProblem(openProblem(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ScenarioProblem(readProblem(errno)) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw ScenarioProblem(typeProblem(type)) }
        let limit = ScenarioLimits.maxFileBytes
        let size = Int(info.st_size)
        guard size <= limit else { throw ScenarioProblem(tooLarge(size)) }
        // One byte more than the size, so a file that grew since fstat is noticed, not cut short.
        var data = Data(count: min(size, limit) + 1)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < buffer.count {
                let count = systemRead(fd, base + filled, buffer.count - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        if failure != 0 { throw ScenarioProblem(readProblem(failure)) }
        if filled > limit { throw ScenarioProblem(tooLarge(filled)) }
        if filled > size { throw ScenarioProblem("cannot read file: it grew while it was read") }
        data.count = filled
        return data
    }

    /// `file is too large: N bytes (limit …)`.
    static func tooLarge(_ size: Int) -> String {
        let limit = ScenarioLimits.maxFileBytes
        return "file is too large: \(size) bytes (limit \(limit) bytes, \(limit / 1_000_000) MB)"
    }

    private static func openProblem(_ code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: "file not found"
        case EACCES, EPERM: "cannot read file: permission denied"
        case ELOOP: "cannot read file: too many symbolic links"
        default: readProblem(code)
        }
    }

    private static func readProblem(_ code: Int32) -> String {
        if code == EISDIR { return "is a directory, not a file" }
        return "cannot read file: " + String(cString: strerror(code))
    }

    private static func typeProblem(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "is a directory, not a file"
        case S_IFIFO: "is a pipe (FIFO), not a regular file"
        case S_IFCHR: "is a character device, not a regular file"
        case S_IFBLK: "is a block device, not a regular file"
        case S_IFSOCK: "is a socket, not a regular file"
        default: "is not a regular file"
        }
    }
}
