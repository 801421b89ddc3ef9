import Foundation
import OpsKitTesting
import OpsMonitor
@testable import OpsWire
import Testing

@testable import OpsDashApp

/// Playing fast, a frame never applies more than a keyframe's worth of lines: where a keyframe
/// lies between the picture shown and the playhead, the picture is taken from it.
@Suite(.ownThread) struct ReplayCatchUpTests {
    @Test func aFrameFarAheadStartsFromTheLatestKeyframe() throws {
        var recording = try TestRecording("catch-up")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 2,000 operations, one every 0.1 s (8,000 event lines), a keyframe every 10 s.
        for index in 0..<2_000 {
            let time = Duration.milliseconds(100 * Int64(index + 1))
            let id = recording.store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: time)
            recording.store.transition(id, to: .executing, time: time)
            recording.store.transition(id, to: .finished, outcome: .succeeded, message: nil, time: time)
            try writer.append(
                recording.store.drainEvents(),
                keyframe: writer.wantsKeyframe(at: time) ? recording.store.snapshot(time: time) : nil)
        }
        writer.close()
        let reader = try RecordingReader(path: path)
        #expect(reader.marks.count > 10)

        // At ×10000 the playhead reaches the end (200 s) within 20 ms; the next frame shows it.
        let source = try ReplaySource(reader: reader, start: .zero, speed: 10_000, idleLimit: nil)
        // Time enough to load the keyframe in one frame (a frame's budget spreads it over several).
        source.frameBudget = .seconds(60)
        #expect(eventually(timeout: .seconds(10)) { source.position == reader.duration })
        let end = try #require(source.snapshot(ifChangedSince: nil))
        #expect(end.counts.finished == 2_000)
        #expect(end.counts.succeeded == 2_000)
        // From the last keyframe (its lines and ≤ 10 s of events), not all 8,000 lines.
        #expect(source.cursor.linesRead < 2_000, "\(source.cursor.linesRead) lines read for one frame")
    }

    /// 4,000 operations queued at 0.1 s (8,000 event lines, then a keyframe of 4,000
    /// operations), then one runs and finishes every 0.1 s.
    static func largeKeyframe(_ name: String) throws -> (path: String, reader: RecordingReader) {
        var recording = try TestRecording(name)
        let writer = recording.writer
        let start = Duration.milliseconds(100)
        let ids = (0..<4_000).map { index in
            recording.store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: start)
        }
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: start))
        for (index, id) in ids.prefix(100).enumerated() {
            let time = Duration.milliseconds(100 * Int64(index + 2))
            recording.store.transition(id, to: .executing, time: time)
            recording.store.transition(id, to: .finished, outcome: .succeeded, message: nil, time: time)
            try writer.append(recording.store.drainEvents())
        }
        writer.close()
        let reader = try RecordingReader(path: recording.path)
        #expect(reader.marks.map(\.lines) == [0, 4_000])
        return (recording.path, reader)
    }

    @Test func aLargeKeyframePassedOverIsReadPastOverSeveralFrames() throws {
        let (path, reader) = try Self.largeKeyframe("large-keyframe-frames")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        source.togglePause()
        // No time to spend: each frame reads a batch of lines, and of the keyframe passed over a
        // batch of lines read past, between two looks at the clock.
        source.frameBudget = .zero
        source.seek(to: .seconds(5))
        let most = RecordingCursor.linesBetweenClockReads + RecordingCursor.linesSkippedBetweenClockReads + 1
        var read = source.cursor.linesRead
        var frames = 0
        while source.isCatchingUp || frames == 0, frames < 1_000 {
            _ = source.snapshot(ifChangedSince: nil)
            #expect(source.cursor.linesRead - read <= most, "\(source.cursor.linesRead - read) lines in a frame")
            read = source.cursor.linesRead
            frames += 1
        }
        #expect(source.cursor.keyframesSkipped == 1)
        let shown = try #require(source.snapshot(ifChangedSince: nil))
        #expect(shown.counts.finished == 49)
        #expect(shown.operations.count == 4_000)
    }

    @Test func playingIntoALargeKeyframeReadsOnInsteadOfLoadingIt() throws {
        let (path, reader) = try Self.largeKeyframe("large-keyframe")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        // Time enough to apply it all in one go (a seek is a frame's budget at a time).
        source.frameBudget = .seconds(120)
        source.seek(to: .seconds(5))
        // Reading 8,000 event lines costs less than loading 4,000 operations: read on, and pass
        // over the keyframe, whose picture the events built already.
        #expect(source.cursor.keyframesSkipped == 1)
        let shown = try #require(source.snapshot(ifChangedSince: nil))
        #expect(shown.counts.finished == 49)
        #expect(shown.operations.count == 4_000)
    }
}

/// A frame's work while playing is bounded by time: an instant with more events than a frame's
/// budget allows is applied over several frames, the picture showing how far the cursor got.
@Suite(.ownThread) struct ReplayFrameBudgetTests {
    @Test func anInstantOfManyEventsIsAppliedOverSeveralFrames() throws {
        // 3,000 operations queued in one instant (3,000 event lines at t 0.05 s).
        let instant = Duration.milliseconds(50)
        let path = try TestRecording.queuedAtOnce("frame-budget", count: 3_000, at: instant)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path)

        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        source.frameBudget = .zero
        #expect(eventually(timeout: .seconds(10)) { source.position >= instant })
        // No time to spend: one batch of lines between two looks at the clock, then the picture.
        let first = try #require(source.snapshot(ifChangedSince: nil))
        #expect(source.isCatchingUp)
        #expect(first.counts.total > 0 && first.counts.total <= RecordingCursor.linesBetweenClockReads)
        // With time again, the rest of the instant comes in the next frame.
        source.frameBudget = .seconds(60)
        let next = try #require(source.snapshot(ifChangedSince: first.version))
        #expect(!source.isCatchingUp)
        #expect(next.counts.total == 3_000)
    }
}
