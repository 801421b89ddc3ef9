import Foundation
import Testing

@testable import OpsMonitor
@testable import OpsWire

/// Opening a recording tells its progress every `progressInterval` bytes, against the file's size.
struct RecordingProgressTests {
    @Test func progressIsToldEveryIntervalAgainstTheFileSize() throws {
        let path = RecordingTests.temporaryPath("progress")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The header, then twelve blank lines of a megabyte (read past, as blank lines are).
        var bytes = Array(RecordingTests.header.line.utf8)
        for _ in 0..<12 { bytes += [UInt8](repeating: 0x20, count: 1_000_000) + [0x0A] }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var told: [(read: UInt64, size: UInt64)] = []
        _ = try RecordingReader(path: path) { read, size in told.append((read, size)) }
        #expect(told.allSatisfy { $0.size == UInt64(bytes.count) })
        #expect(told.map(\.read) == told.map(\.read).sorted())
        // At the start, then once past 4 MiB and once past 8 MiB.
        #expect(told.count == 3, "\(told)")
        #expect(told.first?.read == 0)
    }
}
