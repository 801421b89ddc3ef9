import Foundation

/// Reads a file line by line from a byte offset, in 64 KiB reads: memory stays one buffer plus
/// one line, whatever the file's length.
struct LineReader {
    /// One line: its bytes without the newline, where it starts, and whether it ended with one.
    struct Line {
        var bytes: [UInt8]
        var offset: UInt64
        var terminated: Bool
    }

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var bufferOffset: UInt64
    private var atEnd = false

    init(handle: FileHandle, offset: UInt64) throws {
        self.handle = handle
        try handle.seek(toOffset: offset)
        bufferOffset = offset
    }

    /// The next line, or nil at the end of the file.
    mutating func next() throws -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Line(
                    bytes: Array(buffer[start..<newline]), offset: bufferOffset + UInt64(start), terminated: true)
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Line(bytes: Array(buffer[start...]), offset: bufferOffset + UInt64(start), terminated: false)
                start = buffer.count
                return line
            }
            // Keep the unfinished line, read more.
            bufferOffset += UInt64(start)
            buffer.removeFirst(start)
            start = 0
            let chunk = try handle.read(upToCount: 65_536) ?? Data()
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }
}
