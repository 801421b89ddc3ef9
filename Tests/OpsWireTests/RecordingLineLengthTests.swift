import Foundation
import Testing

@testable import OpsMonitor
@testable import OpsWire

/// A line over `RecordingReader.maximumLineLength` is refused, naming its line, as soon as the
/// limit is passed: not after reading (and re-searching) the whole line.
struct RecordingLineLengthTests {
    /// A recording: the header, then one `length`-byte line of "x", with or without a newline.
    static func writeLongLine(_ path: String, length: Int, newline: Bool) throws {
        var bytes = Array(RecordingTests.header.line.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: length)
        if newline { bytes.append(UInt8(ascii: "\n")) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: [false, true]) func aTwentyMegabyteLineIsRefusedNamingItsLine(newline: Bool) throws {
        let path = RecordingTests.temporaryPath("long")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeLongLine(path, length: 20 << 20, newline: newline)
        #expect(
            throws: RecordingError(path: path, line: 2, problem: "line is longer than the limit of 1048576 bytes")
        ) {
            try RecordingReader(path: path)
        }
    }

    @Test func aLineAtTheLimitIsReadWhole() throws {
        let path = RecordingTests.temporaryPath("limit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeLongLine(path, length: RecordingReader.maximumLineLength, newline: true)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        var lines = try LineReader(handle: handle, offset: 0, maximumLength: RecordingReader.maximumLineLength)
        #expect(try lines.next()?.bytes == Array(RecordingTests.header.line.utf8.dropLast()))
        let long = try #require(try lines.next())
        #expect(long.bytes.count == RecordingReader.maximumLineLength && long.terminated)
        #expect(try lines.next() == nil)
    }
}
