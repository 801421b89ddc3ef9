import Foundation
import OpsMonitor

/// Reads a file line by line from a byte offset, in 64 KiB reads: memory stays one buffer plus
/// one line, whatever the file's length. A line longer than `maximumLength` is refused as soon
/// as that many bytes of it have been read, and each byte is searched for a newline once, so
/// refusing it takes time linear in what was read.
struct LineReader {
    /// One line: its bytes without the newline, where it starts, and whether it ended with one.
    struct Line {
        var bytes: [UInt8]
        var offset: UInt64
        var terminated: Bool
    }

    /// A line longer than the limit (it may go on much further: the rest is not read).
    struct LineTooLong: Error, Equatable {
        var maximumLength: Int
        var message: String { "line is longer than the limit of \(maximumLength) bytes" }
    }

    private let handle: FileHandle
    /// The longest line accepted, in bytes without the newline (one more for a "\r" before it).
    private let maximumLength: Int
    private var buffer: [UInt8] = []
    /// Where the current line starts in `buffer`.
    private var start = 0
    /// Where the search for its newline goes on: the bytes before were searched already.
    private var searched = 0
    private var bufferOffset: UInt64
    private var atEnd = false

    init(handle: FileHandle, offset: UInt64, maximumLength: Int) throws {
        self.handle = handle
        self.maximumLength = maximumLength
        try handle.seek(toOffset: offset)
        bufferOffset = offset
    }

    /// The next line, or nil at the end of the file; throws `LineTooLong` for an over-long line.
    mutating func next() throws -> Line? {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                try check(length: newline - start)
                let line = Line(
                    bytes: Array(buffer[start..<newline]), offset: bufferOffset + UInt64(start), terminated: true)
                start = newline + 1
                searched = start
                return line
            }
            searched = buffer.count
            try check(length: buffer.count - start)
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Line(bytes: Array(buffer[start...]), offset: bufferOffset + UInt64(start), terminated: false)
                start = buffer.count
                searched = start
                return line
            }
            // Keep the unfinished line, read more.
            if start > 0 {
                bufferOffset += UInt64(start)
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            let chunk = try handle.read(upToCount: 65_536) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    private func check(length: Int) throws(LineTooLong) {
        // One byte over for the "\r" of a "\r\n" line ending.
        if length > maximumLength + 1 { throw LineTooLong(maximumLength: maximumLength) }
    }
}
