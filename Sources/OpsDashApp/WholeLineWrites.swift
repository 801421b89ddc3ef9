import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes lines into a pipe so that the pipe only ever holds whole lines: `write(2)` calls of
/// whole lines, each at most `PIPE_BUF` bytes (a blocking pipe takes such a write all at once
/// or waits; it never takes part of it). A line longer than that is written alone once the pipe
/// is empty (on Linux, after making the pipe large enough for it, up to the system's
/// `pipe-max-size`), so it too goes in whole. Whatever moment the process ends, a reader that
/// stalled gets no cut-off line.
enum WholeLineWrites {
    /// The size up to which a pipe write is atomic (POSIX: at least 512; Linux: 4096).
    static let atomicSize = Int(PIPE_BUF)

    /// Where `bytes` is cut into writes: the end of each piece, after a newline where there is
    /// one (a piece is at most `limit` bytes unless it is one longer line).
    static func pieceEnds(_ bytes: [UInt8], limit: Int = atomicSize) -> [Int] {
        var ends: [Int] = []
        var start = 0
        while start < bytes.count {
            if bytes.count - start <= limit {
                ends.append(bytes.count)
                break
            }
            // The last newline within the next `limit` bytes, else the end of a longer line.
            let newline =
                bytes[start..<start + limit].lastIndex(of: 0x0A) ?? bytes[(start + limit)...].firstIndex(of: 0x0A)
            guard let newline else {
                ends.append(bytes.count)
                break
            }
            ends.append(newline + 1)
            start = newline + 1
        }
        return ends
    }

    /// Writes all of `bytes` into the pipe `descriptor`; nil, or why it couldn't.
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> OutputPump.Failure? {
        var start = 0
        for end in pieceEnds(bytes) {
            let piece = Array(bytes[start..<end])
            if piece.count > atomicSize { waitUntilEmpty(descriptor, room: piece.count) }
            if let failure = OutputPump.writeAll(piece, to: descriptor) { return failure }
            start = end
        }
        return nil
    }

    /// Waits until the pipe holds nothing, first making it large enough for `room` bytes when
    /// the system allows (Linux); returns at once where the pipe's fill can't be seen.
    private static func waitUntilEmpty(_ descriptor: Int32, room: Int) {
        #if os(Linux)
        let getSize: Int32 = 1032  // F_GETPIPE_SZ
        let setSize: Int32 = 1031  // F_SETPIPE_SZ
        if fcntl(descriptor, getSize) < room { _ = fcntl(descriptor, setSize, Int32(clamping: room)) }
        guard fcntl(descriptor, getSize) >= room else { return }
        while true {
            var queued: Int32 = 0
            guard ioctl(descriptor, UInt(FIONREAD), &queued) == 0, queued > 0 else { return }
            // A full pipe says nothing more until it empties: look again shortly.
            _ = poll(nil, 0, 5)
        }
        #endif
    }
}
