import Foundation
import Testing
@testable import OpsWire

@testable import OpsMonitor

/// Where a recording ends (one definition for the header, End, `--start-at` and the headless
/// summary), and the warning for event lines missing from it.
@Suite struct RecordingEndAndGapTests {
    /// A run quit 9 s after its last event: its last keyframe (written at the quit) is the end.
    @Test func theLastKeyframeAfterTheLastEventIsTheEnd() throws {
        let path = RecordingTests.temporaryPath("end")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: RecordingTests.header)
        var store = MonitorStore()
        store.recordsEvents = true
        let id = store.add(
            name: "a", kind: .download, lifecycle: .ready, totalBytes: 1, dependencies: [], time: .seconds(1))
        store.transition(id, to: .executing, time: .seconds(2))
        try writer.append(store.drainEvents(), keyframe: nil)
        try writer.append([], keyframe: store.snapshot(time: .seconds(11)))
        writer.close()
        let reader = try RecordingReader(path: path)
        #expect(reader.duration == .seconds(11))
        // Played to its end, the picture's time (the headless summary's duration) is the same.
        var cursor = try reader.cursorAtStart()
        while let next = try cursor.nextEventTime() { _ = try cursor.advance(to: next, collecting: true) }
        #expect(cursor.builder.snapshot().time == reader.duration)
    }

    /// Writes 8 operations' events (seq 1...40), then removes the lines with the given seqs.
    private func recording(without removed: Set<Int>) throws -> String {
        let path = RecordingTests.temporaryPath("gap")
        try RecordingTests.writeRecording(path, operations: 8, policy: .init())
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let kept = lines.filter { line in !removed.contains { line.hasSuffix(#","seq":\#($0)}"#) } }
        try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aMissingEventLineIsNamedWithItsSeqs() throws {
        let path = try recording(without: [7])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path)
        #expect(reader.warnings == ["\(path):8: seq 8 after 6: 1 event missing"])
        #expect(reader.warning == nil, "not a torn line")
    }

    @Test func pastThreeGapsOneLineCountsThemAll() throws {
        let path = try recording(without: [3, 4, 9, 15, 21, 30])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path)
        #expect(
            reader.warnings == [
                "\(path):4: seq 5 after 2: 2 events missing", "\(path):8: seq 10 after 8: 1 event missing",
                "\(path):13: seq 16 after 14: 1 event missing", "\(path): 5 gaps in seq in all, 6 events missing",
            ])
    }
}
