import Foundation
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// Playing on through a large keyframe passes over it (its lines read, not decoded): the picture
/// is the keyframe's already, and loading 200,000 queued operations stalled a replay.
@Suite struct RecordingKeyframeSkipTests {
    /// 4,000 operations queued at once, then one every 0.1 s runs (with a retry for every
    /// 50th) and finishes; keyframes as the default policy places them, each holding thousands
    /// of queued operations. Returns the reader.
    private static func queuedRecording(_ path: String) throws -> RecordingReader {
        let writer = try RecordingWriter(path: path, header: RecordingTests.header, policy: .init())
        var store = MonitorStore(limits: RecordingReader.limits)
        store.recordsEvents = true
        var ids: [Int] = []
        for index in 0..<4_000 {
            ids.append(
                store.add(
                    name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [],
                    time: .milliseconds(100)))
        }
        func write(_ time: Duration) throws {
            try writer.append(
                store.drainEvents(), keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
        }
        try write(.milliseconds(100))
        for (index, id) in ids.enumerated() {
            let time = Duration.milliseconds(100 * Int64(index + 2))
            store.transition(id, to: .executing, time: time)
            if index % 50 == 0 {
                store.progress(
                    id, completedBytes: 40, bytesPerSecond: 10, retries: 1, retryLog: ["attempt 1 failed: reset"],
                    time: time)
            }
            store.transition(id, to: .finished, outcome: .succeeded, message: nil, time: time)
            try write(time)
        }
        writer.close()
        return try RecordingReader(path: path)
    }

    @Test func playingOnPassesOverLargeKeyframesAndShowsWhatLoadingThemShows() throws {
        let path = RecordingTests.temporaryPath("skip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try Self.queuedRecording(path)
        let large = reader.marks.filter { $0.lines >= RecordingCursor.skippedKeyframeLines }
        #expect(large.count >= 2, "marks: \(reader.marks.map(\.lines))")
        var playing = try reader.cursorAtStart()
        for mark in reader.marks.dropFirst() {
            // Just past each keyframe, compared with a cursor that loaded it.
            let time = mark.time + .milliseconds(150)
            try playing.advance(to: time)
            let loaded = try reader.cursor(at: time)
            let (mine, theirs) = (playing.builder.snapshot(), loaded.builder.snapshot())
            #expect(mine.counts == theirs.counts, "at \(time)")
            #expect(mine.log == theirs.log, "at \(time)")
            // Every unfinished operation the same; of the finished ones a keyframe keeps the
            // newest 500 and a played store evicts in batches (500 plus some slack): the
            // keyframe's are the newest of those played, and the rest count as evicted.
            let unfinished = { (picture: QueueSnapshot) in picture.operations.filter { $0.lifecycle != .finished } }
            #expect(unfinished(mine) == unfinished(theirs), "at \(time)")
            let finished = { (picture: QueueSnapshot) in picture.operations.filter { $0.lifecycle == .finished } }
            #expect(Array(finished(mine).suffix(finished(theirs).count)) == finished(theirs), "at \(time)")
            #expect(
                mine.evictedCount + finished(mine).count == theirs.evictedCount + finished(theirs).count, "at \(time)")
        }
        #expect(playing.keyframesSkipped == large.count)
        #expect(playing.builder.snapshot().operations.contains { !$0.retryLog.isEmpty })
    }

    @Test func aCursorStartingAtAKeyframeLoadsIt() throws {
        let path = RecordingTests.temporaryPath("skip-start")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try Self.queuedRecording(path)
        let mark = try #require(reader.marks.dropFirst().first { $0.lines >= RecordingCursor.skippedKeyframeLines })
        let cursor = try reader.cursor(at: mark.time)
        #expect(cursor.keyframesSkipped == 0)
        #expect(cursor.builder.snapshot().operations.count >= RecordingCursor.skippedKeyframeLines / 2)
    }
}
