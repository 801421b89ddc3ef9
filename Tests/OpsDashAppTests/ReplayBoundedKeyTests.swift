import Foundation
import OpsKitTesting
import OpsDashUI
import OpsMonitor
@testable import OpsWire
import Testing

@testable import OpsDashApp

/// Pausing, seeking and stepping are bounded as playing is: what the key asks for is applied a
/// frame's budget at a time (a keyframe too), the last whole picture staying on show meanwhile.
@Suite(.ownThread) struct ReplayBoundedKeyTests {
    /// 1,500 operations queued before the recording's first keyframe (at 0.5 s: 1,500 lines), then
    /// one finishing every 0.1 s from 1 s to 10 s.
    static func largeKeyframe(_ name: String) throws -> (path: String, reader: RecordingReader) {
        var recording = try TestRecording(name)
        let writer = recording.writer
        recording.store.recordsEvents = false
        let ids = (0..<1_500).map { index in
            recording.store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .zero)
        }
        _ = recording.store.drainEvents()
        try writer.append([], keyframe: recording.store.snapshot(time: .milliseconds(500)))
        recording.store.recordsEvents = true
        for (index, id) in ids.prefix(91).enumerated() {
            let time = Duration.milliseconds(1_000 + 100 * Int64(index))
            recording.store.transition(id, to: .executing, time: time)
            recording.store.transition(id, to: .finished, outcome: .succeeded, message: nil, time: time)
            try writer.append(recording.store.drainEvents())
        }
        writer.close()
        let reader = try RecordingReader(path: recording.path)
        #expect(reader.marks.map(\.lines) == [0, 1_500])
        return (recording.path, reader)
    }

    @Test func aSeekLoadsItsKeyframeOverSeveralFrames() throws {
        let (path, reader) = try Self.largeKeyframe("bounded-seek")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: reader.duration, speed: 1, idleLimit: nil)
        source.togglePause()
        let end = try #require(source.snapshot(ifChangedSince: nil))
        #expect(end.counts.succeeded == 91)

        // No time to spend: the keyframe is half loaded, and no picture is taken of it.
        source.frameBudget = .zero
        source.seek(to: .seconds(5))
        #expect(source.cursor.builder.isReadingKeyframe)
        #expect(source.snapshot(ifChangedSince: nil) == nil)
        #expect(source.isCatchingUp)
        // With time again, the picture at 5 s.
        source.frameBudget = .seconds(60)
        let shown = try #require(source.snapshot(ifChangedSince: end.version))
        #expect(!source.isCatchingUp)
        #expect(shown.operations.count == 1_500)
        #expect(shown.counts.succeeded == 41)
        #expect(shown.time == .seconds(5))
    }

    @Test func aStepAppliesTheKeyframeBeforeItsEventOverSeveralFrames() throws {
        let (path, reader) = try Self.largeKeyframe("bounded-step")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        source.togglePause()
        source.frameBudget = .zero
        source.step()
        #expect(source.cursor.builder.isReadingKeyframe)
        #expect(source.status().detail == "")
        source.frameBudget = .seconds(60)
        _ = source.snapshot(ifChangedSince: nil)
        #expect(!source.cursor.builder.isReadingKeyframe)
        #expect(source.status().detail.contains("step: seq 1"), "\(source.status().detail)")
        #expect(source.cursor.seq == 1)
        #expect(source.position == .seconds(1))
    }

    @Test func pausingWhileCatchingUpGetsToThePlayheadOverSeveralFrames() throws {
        // 3,000 operations queued in one instant (3,000 event lines at t 0.05 s).
        let instant = Duration.milliseconds(50)
        let path = try TestRecording.queuedAtOnce("bounded-pause", count: 3_000, at: instant)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path)
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        source.frameBudget = .zero
        #expect(eventually(timeout: .seconds(10)) { source.position >= instant })
        _ = try #require(source.snapshot(ifChangedSince: nil))
        #expect(source.isCatchingUp)

        // Paused, the cursor still has most of the instant to apply: a frame's budget at a time.
        source.togglePause()
        #expect(source.cursor.builder.snapshot().counts.total < 3_000)
        source.frameBudget = .seconds(60)
        let paused = try #require(source.snapshot(ifChangedSince: nil))
        #expect(!source.isCatchingUp)
        #expect(paused.counts.total == 3_000)
    }

    @Test func gReadsTheRecordingsLastPictureOverSeveralFrames() throws {
        let (path, reader) = try Self.largeKeyframe("bounded-g")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        var state = DashboardState(width: 120, height: 40)
        state.selectedID = 5
        // No time to spend: the last keyframe (1,500 operations) is half read, nothing jumps yet.
        source.frameBudget = .zero
        #expect(source.handle(.character("g"), in: state))
        #expect(!source.isPaused)
        #expect(source.status().detail == "— g: finding #5's last change")
        _ = source.snapshot(ifChangedSince: nil)
        #expect(!source.isPaused)
        // With time again, the next frame finishes it and jumps: #5 finished at 1.4 s.
        source.frameBudget = .seconds(60)
        let shown = try #require(source.snapshot(ifChangedSince: nil))
        #expect(source.isPaused)
        #expect(source.position == .milliseconds(1_400))
        #expect(shown.operation(id: 5)?.outcome == .succeeded)
        #expect(source.status().detail == "— #5 op4: succeeded at 0:01")
    }

    @Test func hReadsTheTimelineOverSeveralFrames() throws {
        let (path, reader) = try Self.largeKeyframe("bounded-h")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        let state = DashboardState(width: 120, height: 40)
        source.frameBudget = .zero
        #expect(!source.handle(.character("h"), in: state), "the dashboard opens the view")
        #expect(source.status().playback?.timeline == nil)
        #expect(source.status().detail == "— h: reading the recording's timeline")
        source.frameBudget = .seconds(60)
        _ = source.snapshot(ifChangedSince: nil)
        let timeline = try #require(source.status().playback?.timeline)
        #expect(timeline.values(.succeeded, endingAt: .seconds(10), count: 11).reduce(0, +) == 91)
        #expect(source.status().detail == "")
        #expect(!source.isPaused, "h does not pause")
    }
}
