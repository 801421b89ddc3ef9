import Foundation
import OpsKit

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
/// The file is opened through `RegularFile` (non-blocking, so a FIFO cannot hang the open, and
/// checked with `fstat`) and read straight into one buffer of its size: no second copy, and a device such as `/dev/zero` or a
/// file that grows while it is read cannot make it allocate more than the limit.
enum ScenarioFileReader {
    /// The file's bytes, or the problem (`file not found`, `is a directory, not a file`, …).
    static func read(path: String) throws(ScenarioProblem) -> Data {
        let fd: Int32
        let size: Int
        do { (fd, size) = try RegularFile.open(path: path) } catch {
            throw ScenarioProblem(error.problem(notFound: "file not found"))
        }
        defer { close(fd) }
        let limit = ScenarioLimits.maxFileBytes
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
        if failure != 0 { throw ScenarioProblem(RegularFile.readProblem(failure)) }
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
}
