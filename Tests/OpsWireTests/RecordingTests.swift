import Foundation
import Testing
@testable import OpsMonitor
@testable import OpsWire

@Suite struct RecordingTests {
    /// A temporary file path, removed by the caller.
    static func temporaryPath(_ name: String = "rec") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-\(name)-\(UUID().uuidString).jsonl").path
    }

    static let header = RecordingHeader(app: "test", queue: "q", started: "2026-01-01T00:00:00Z", source: "local")

    /// Writes `count` operations added → executing → finished through a store, one per 0.1 s,
    /// keyframes as `policy` says; returns the snapshot after each event batch by time.
    @discardableResult
    static func writeRecording(_ path: String, operations count: Int, policy: RecordingWriter.KeyframePolicy) throws
        -> [(Duration, QueueSnapshot)]
    {
        let writer = try RecordingWriter(path: path, header: header, policy: policy)
        var store = MonitorStore()
        store.recordsEvents = true
        var pictures: [(Duration, QueueSnapshot)] = []
        for index in 0..<count {
            let time = Duration.milliseconds(100 * Int64(index + 1))
            let id = store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: time)
            store.transition(id, to: .executing, time: time)
            store.progress(id, completedBytes: 50, bytesPerSecond: 10, retries: 0, time: time)
            store.transition(
                id, to: .finished, outcome: index % 7 == 0 ? .failed : .succeeded, message: nil, time: time)
            let snapshot = store.snapshot(time: time)
            try writer.append(store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? snapshot : nil)
            pictures.append((time, snapshot))
        }
        writer.close()
        return pictures
    }

    @Test func seekingFromAKeyframeShowsWhatPlayingFromTheStartShows() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pictures = try Self.writeRecording(
            path, operations: 300, policy: .init(interval: .seconds(5), events: 1_000))
        let reader = try RecordingReader(path: path)
        #expect(reader.header == Self.header)
        #expect(reader.marks.count >= 4, "keyframes indexed")
        #expect(reader.eventCount == 300 * 5)
        #expect(reader.duration == .seconds(30))
        for probe in [0, 1, 49, 50, 51, 170, 299] {
            let (time, expected) = pictures[probe]
            let mark = reader.mark(before: time)
            #expect(mark.time <= time && time - mark.time <= .seconds(11))
            let seen = try reader.cursor(at: time).builder.snapshot()
            #expect(seen.counts == expected.counts, "at \(time)")
            #expect(seen.completedBytes == expected.completedBytes)
            #expect(seen.operations.map(\.id) == expected.operations.map(\.id))
            #expect(seen.operations.map(\.lifecycle) == expected.operations.map(\.lifecycle))
        }
    }

    @Test func playingStepByStepReachesTheEnd() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeRecording(path, operations: 20, policy: .init(interval: .seconds(1), events: 10))
        var cursor = try RecordingReader(path: path).cursor(at: .zero)
        var steps = 0
        while try cursor.step() {
            steps += 1
            #expect(cursor.builder.snapshot().log.count <= steps, "one event line per step")
        }
        #expect(steps == 20 * 5, "one step per event line, those of the same time too")
        #expect(cursor.builder.snapshot().counts.finished == 20)
        #expect(cursor.isAtEnd)
    }

    @Test func aTornLastLineIsIgnoredWithAWarning() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.writeRecording(path, operations: 3, policy: .init())
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        handle.write(Data(#"{"t":9.0,"event":"state","id":1,"#.utf8))
        try handle.close()
        let reader = try RecordingReader(path: path)
        #expect(
            reader.warning?.hasSuffix(":17: last line is incomplete (torn write); ignored") == true,
            "\(reader.warning ?? "")")
        #expect(reader.eventCount == 15)
        let cursor = try reader.cursor(at: .seconds(100))
        #expect(cursor.builder.snapshot().counts.finished == 3)
    }

    @Test(arguments: [
        ("", 0, "empty recording (no header line)"),
        ("hello\n", 1, "not a recording: "),
        (
            #"{"t":1,"event":"added","id":1,"op":"a","kind":"other","total":0,"after":[]}"# + "\n", 1,
            #"not a recording: the first line must be a "recording" header"#
        ),
        (
            #"{"event":"recording","format":"opsdash-recording","version":2,"app":"a","queue":"q","started":"","source":"local"}"#
                + "\n", 1, "format version 2 is newer than this opsdash reads (1)"
        ),
        (
            #"{"event":"recording","format":"opsdash-recording","version":0,"app":"a","queue":"q","started":"","source":"local"}"#
                + "\n", 1, "format version 0 is not a version (they start at 1)"
        ),
        (
            #"{"event":"recording","format":"asciicast","version":1}"# + "\n", 1,
            #"not a recording: header format is not "opsdash-recording""#
        ),
    ])
    func badHeadersNameTheLineAndTheProblem(_ text: String, _ line: Int, _ problem: String) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: RecordingError.self) { try RecordingReader(path: path) }
        #expect(error?.line == line)
        #expect(error?.problem.hasPrefix(problem) == true, "\(error?.problem ?? "")")
        #expect(error?.description.hasPrefix(line > 0 ? "\(path):\(line): " : "\(path): ") == true)
    }

    @Test(arguments: [
        (
            "{\"t\":1,\"event\":\"state\",\"id\":1,\"op\":\"a\",\"from\":null,\"to\":\"ready\",\"seq\":1}\nnot json\n",
            3, ""
        ),
        (
            "{\"t\":1,\"event\":\"state\",\"id\":1,\"op\":\"a\",\"from\":null,\"to\":\"ready\",\"seq\":2}\n{\"t\":2,\"event\":\"state\",\"id\":1,\"op\":\"a\",\"from\":\"ready\",\"to\":\"executing\",\"seq\":2}\n",
            3, "seq 2 after seq 2: out of order"
        ),
    ])
    func badLinesAfterTheHeaderNameTheLine(_ body: String, _ line: Int, _ problem: String) throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (Self.header.line + body).write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: RecordingError.self) { try RecordingReader(path: path) }
        #expect(error?.line == line)
        #expect(error?.problem.hasPrefix(problem) == true, "\(error?.problem ?? "")")
    }

    @Test func headlessOutputWithAHeaderLineIsARecording() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var encoder = JSONLinesEncoder()
        var store = MonitorStore()
        store.recordsEvents = true
        let id = store.add(
            name: "a", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .seconds(1))
        store.transition(id, to: .executing, time: .seconds(2))
        store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(3))
        var text = Self.header.line
        for event in store.drainEvents() { encoder.encode(event, into: &text) }
        text += JSONLinesEncoder.summary(store.snapshot(time: .seconds(3)), duration: .seconds(3), interrupted: false)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try RecordingReader(path: path)
        #expect(reader.eventCount == 4, "added, then three state changes")
        #expect(try reader.cursor(at: .seconds(10)).builder.snapshot().counts.succeeded == 1)
    }
}
