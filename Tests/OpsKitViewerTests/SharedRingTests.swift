import Foundation
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The shared-memory stream on its own: whole lines in order across the wrap, a reader that fell
/// more than the ring behind is told so, and anything that is not a stream is refused.
@Suite struct SharedRingTests {
    static func line(_ number: Int) -> [UInt8] {
        Array("{\"n\":\(number),\"pad\":\"\(String(repeating: "x", count: number % 97))\"}\n".utf8)
    }

    static func write(_ writer: SharedRingWriter, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writer.write($0) }
    }

    @Test func aReaderGetsEveryLineInOrderAcrossTheWrap() throws {
        let writer = try #require(SharedRingWriter(capacity: 4_096))
        let reader = try #require(SharedRingReader(path: writer.path))
        #expect(reader.capacity == 4_096)
        var written: [UInt8] = []
        var read: [UInt8] = []
        var position: UInt64 = 0
        for number in 0..<600 {
            let bytes = Self.line(number)
            Self.write(writer, bytes)
            written += bytes
            if number % 7 == 0 {
                while case .bytes = reader.read(from: &position, into: &read) {}
            }
        }
        while case .bytes = reader.read(from: &position, into: &read) {}
        #expect(written.count > 8 * 4_096, "the ring wrapped many times")
        #expect(read == written)
        #expect(position == writer.end)
        #expect(reader.read(from: &position, into: &read) == .caughtUp)
    }

    @Test func aLimitCutsOnlyBetweenLines() throws {
        let writer = try #require(SharedRingWriter(capacity: 4_096))
        let reader = try #require(SharedRingReader(path: writer.path))
        let lines = (0..<5).map(Self.line)
        for line in lines { Self.write(writer, line) }
        var read: [UInt8] = []
        var position: UInt64 = 0
        #expect(reader.read(from: &position, into: &read, limit: lines[0].count + 3) == .bytes(lines[0].count))
        #expect(read == lines[0])
        #expect(reader.read(from: &position, into: &read, limit: 2) == .caughtUp, "no whole line fits: nothing taken")
        #expect(position == UInt64(lines[0].count))
    }

    @Test func aReaderMoreThanTheRingBehindIsToldItLagged() throws {
        let writer = try #require(SharedRingWriter(capacity: 4_096))
        let reader = try #require(SharedRingReader(path: writer.path))
        var position: UInt64 = 0
        var read: [UInt8] = []
        var number = 0
        while writer.end <= 4_096 {
            Self.write(writer, Self.line(number))
            number += 1
        }
        #expect(reader.read(from: &position, into: &read) == .lagged)
        #expect(read.isEmpty)
        #expect(position == 0, "a lagged read moves nothing")
        var fromTheEnd = writer.end
        #expect(reader.read(from: &fromTheEnd, into: &read) == .caughtUp)
        var beyond = writer.end + 10
        #expect(reader.read(from: &beyond, into: &read) == .lagged, "a position the stream never reached")
    }

    @Test func anythingButAStreamIsRefused() throws {
        #expect(SharedRingReader(path: "/nonexistent/opsdash-stream") == nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ring-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 0, count: 8_192).write(to: file)
        #expect(SharedRingReader(path: file.path) == nil, "no magic word")
        try Data(repeating: 0, count: 16).write(to: file)
        #expect(SharedRingReader(path: file.path) == nil, "shorter than the header")
    }
}
