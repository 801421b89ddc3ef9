import Foundation
import Testing

@testable import OpsMonitor
@testable import OpsWire

/// Opening a recording refuses a broken keyframe or an event time no keyframe agrees with, at
/// the line where it is, so that no replay mode meets it later.
@Suite struct RecordingKeyframeCheckTests {
    /// A recording with keyframes, as lines (the header first).
    static func lines() throws -> (path: String, lines: [String]) {
        let path = RecordingTests.temporaryPath("keyframes")
        try RecordingTests.writeRecording(path, operations: 30, policy: .init(interval: .seconds(1), events: 20))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return (path, text.split(separator: "\n").map(String.init))
    }

    static func open(_ lines: [String], at path: String) throws(RecordingError) -> RecordingReader {
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return try RecordingReader(path: path)
    }

    /// The index (0-based) of the second keyframe's line of `event`.
    static func secondKeyframe(_ lines: [String], _ event: String) throws -> Int {
        let indices = lines.indices.filter { lines[$0].contains("\"event\":\"\(event)\"") }
        return try #require(indices.dropFirst().first)
    }

    @Test func aMissingSnapshotEndIsRefusedAtTheNextEvent() throws {
        var (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let end = try Self.secondKeyframe(lines, "snapshot_end")
        lines.remove(at: end)
        let error = #expect(throws: RecordingError.self) { try Self.open(lines, at: path) }
        #expect(error?.line == end + 1)
        #expect(error?.problem == "event inside a snapshot")
    }

    @Test func aMissingSnapshotBeginIsRefusedAtItsFirstOperation() throws {
        var (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let begin = try Self.secondKeyframe(lines, "snapshot_begin")
        lines.remove(at: begin)
        let error = #expect(throws: RecordingError.self) { try Self.open(lines, at: path) }
        #expect(error?.line == begin + 1)
        #expect(error?.problem == "snapshot_op outside a snapshot")
    }

    @Test(arguments: ["operations", "log"])
    func aWrongCountIsRefused(_ field: String) throws {
        var (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let begin = try Self.secondKeyframe(lines, "snapshot_begin")
        lines[begin] = lines[begin].replacingOccurrences(
            of: #""\#(field)":[0-9]+"#, with: "\"\(field)\":999", options: .regularExpression)
        let end = try Self.secondKeyframe(lines, "snapshot_end")
        let error = #expect(throws: RecordingError.self) { try Self.open(lines, at: path) }
        #expect(error?.line == end + 1)
        #expect(error?.problem.hasSuffix("header says 999") == true, "\(error?.problem ?? "")")
    }

    /// Counts no file could hold (10^15, `Int.max` of each, so their sum overflows) are refused
    /// quoting the file's number, not crashing or clamping it.
    @Test(arguments: [("1000000000000000", nil), ("9223372036854775807", "9223372036854775807")])
    func anEnormousCountIsRefusedQuotingTheFile(_ operations: String, _ log: String?) throws {
        var (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let begin = try Self.secondKeyframe(lines, "snapshot_begin")
        lines[begin] = lines[begin].replacingOccurrences(
            of: #""operations":[0-9]+"#, with: "\"operations\":\(operations)", options: .regularExpression
        )
        if let log {
            lines[begin] = lines[begin].replacingOccurrences(
                of: #""log":[0-9]+"#, with: "\"log\":\(log)", options: .regularExpression)
        }
        let end = try Self.secondKeyframe(lines, "snapshot_end")
        let error = #expect(throws: RecordingError.self) { try Self.open(lines, at: path) }
        #expect(error?.line == end + 1)
        #expect(error?.problem.hasSuffix("header says \(operations)") == true, "\(error?.problem ?? "")")
    }

    @Test func anEventLaterThanTheNextKeyframeIsRefused() throws {
        var (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let begin = try Self.secondKeyframe(lines, "snapshot_begin")
        let event = try #require(lines[..<begin].lastIndex { $0.contains("\"seq\":") && !$0.contains("snapshot") })
        lines[event] = lines[event].replacingOccurrences(
            of: #""t":[0-9.]+"#, with: "\"t\":99999", options: .regularExpression)
        let error = #expect(throws: RecordingError.self) { try Self.open(lines, at: path) }
        #expect(error?.line == event + 1)
        #expect(error?.problem.hasPrefix("t 99999.000 is later than the next keyframe's") == true)
    }

    @Test func aKeyframeCutShortAtTheEndIsIgnoredWithAWarning() throws {
        let (path, lines) = try Self.lines()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let begin = try #require(lines.lastIndex { $0.contains("\"event\":\"snapshot_begin\"") })
        let end = try #require(lines.lastIndex { $0.contains("\"event\":\"snapshot_end\"") })
        let before = try Self.open(Array(lines[..<begin]), at: path)
        var played = try before.cursorAtStart()
        while try played.step() {}
        // The file ends inside its last keyframe (cut before its snapshot_end).
        let reader = try Self.open(Array(lines[..<end]), at: path)
        #expect(
            reader.warning?.hasSuffix(":\(begin + 1): last keyframe is incomplete (the file ends inside it); ignored")
                == true, "\(reader.warning ?? "")")
        #expect(reader.marks == before.marks)
        var cursor = try reader.cursorAtStart()
        while try cursor.step() {}
        #expect(cursor.builder.snapshot().counts == played.builder.snapshot().counts)
        #expect(!cursor.builder.isReadingKeyframe)
    }
}
