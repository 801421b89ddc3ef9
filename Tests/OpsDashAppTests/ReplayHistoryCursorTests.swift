import Foundation
import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashApp
@testable import OpsWire

/// In a replay, `h` shows the recording's per-second history as a timeline with the playhead as
/// its cursor; ←/→ move the cursor a column, pause, and the picture is that moment's.
@Suite struct ReplayHistoryCursorTests {
    @Test func theCursorSeeksTheReplayAndTheTableShowsThatMoment() throws {
        var recording = try TestRecording("history-cursor")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for index in 1...3 {
            _ = recording.store.add(
                name: "job-\(index)", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [],
                time: .seconds(1))
        }
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(1)))
        recording.store.transition(1, to: .executing, time: .seconds(2))
        recording.store.transition(1, to: .finished, outcome: .failed, message: "boom", time: .seconds(20))
        recording.store.transition(2, to: .executing, time: .seconds(30))
        recording.store.transition(2, to: .finished, outcome: .succeeded, time: .seconds(40))
        try writer.append(recording.store.drainEvents(), keyframe: nil)
        writer.close()

        let source = try ReplaySource(
            reader: RecordingReader(path: path), start: .seconds(40), speed: 1, idleLimit: nil)
        var state = DashboardState(width: 100, height: 30)
        state.source = source.status()
        #expect(source.status().playback?.timeline == nil, "read only when the view opens")
        #expect(!source.handle(.character("h"), in: state), "the dashboard opens the view")
        state.showHistory = true
        state.source = source.status()
        let timeline = try #require(source.status().playback?.timeline)
        #expect(timeline.values(.failed, endingAt: .seconds(40), count: 21).first == 1, "second 20")
        #expect(state.historyCursorStep == .seconds(1), "40 seconds fit in 77 columns: one a column")

        for _ in 0..<21 { #expect(source.handle(.left, in: state)) }
        #expect(source.isPaused)
        #expect(source.position == .seconds(19))
        let before = try #require(source.snapshot(ifChangedSince: nil))
        #expect(before.operation(id: 1)?.lifecycle == .executing, "at 0:19 job-1 still runs")
        #expect(source.handle(.right, in: state))
        #expect(source.position == .seconds(20))
        let after = try #require(source.snapshot(ifChangedSince: nil))
        #expect(after.operation(id: 1)?.outcome == .failed, "at 0:20 it has failed")

        state.source = source.status()
        let view = render(state).lines
        #expect(view[3].contains("at 0:20 0/s succeeded  1/s failed"), "\(view[3])")

        // With the view closed the arrows seek 10 s again.
        state.showHistory = false
        #expect(source.handle(.right, in: state))
        #expect(source.position == .seconds(30))
    }

    /// A recording longer than its keyframes' history window (30 s here, 15 minutes by
    /// default): the timeline still covers all of it, stitched from keyframes, and the cursor
    /// reaches its first seconds, the table showing that moment.
    @Test func theTimelineCoversTheWholeRecordingBeyondOneWindow() throws {
        var recording = try TestRecording("history-whole")
        recording.store = MonitorStore(limits: .init(historySeconds: 30))
        recording.store.recordsEvents = true
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for index in 1...12 {
            _ = recording.store.add(
                name: "job-\(index)", kind: .process, lifecycle: .ready, totalBytes: 0, dependencies: [],
                time: .zero)
        }
        recording.store.transition(1, to: .executing, time: .seconds(1))
        recording.store.transition(1, to: .finished, outcome: .failed, message: "early", time: .seconds(5))
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(5)))
        for index in 2...12 {
            let time = Duration.seconds(10 * (index - 1))
            recording.store.transition(index, to: .executing, time: time)
            recording.store.transition(index, to: .finished, outcome: .succeeded, time: time + .seconds(1))
            try writer.append(
                recording.store.drainEvents(), keyframe: recording.store.snapshot(time: time + .seconds(1)))
        }
        writer.close()

        let reader = try RecordingReader(path: path)
        #expect(reader.duration == .seconds(111))
        let timeline = try reader.timeline()
        let failed = timeline.values(.failed, endingAt: .seconds(111), count: 112)
        #expect(failed.count == 112, "every second of the recording: \(failed.count)")
        #expect(failed.enumerated().filter { $0.element > 0 }.map(\.offset) == [5], "the failure at 0:05")
        #expect(timeline.values(.succeeded, endingAt: .seconds(111), count: 112).reduce(0, +) == 11)

        let source = try ReplaySource(reader: reader, start: .seconds(111), speed: 1, idleLimit: nil)
        var state = DashboardState(width: 100, height: 30)
        #expect(!source.handle(.character("h"), in: state))
        state.showHistory = true
        state.source = source.status()
        #expect(state.historyCursorStep == .seconds(2), "112 seconds in 77 columns: two a column")
        for _ in 0..<54 { #expect(source.handle(.left, in: state)) }
        #expect(source.position == .seconds(3))
        #expect(try #require(source.snapshot(ifChangedSince: nil)).operation(id: 1)?.lifecycle == .executing)
        #expect(source.handle(.right, in: state))
        #expect(try #require(source.snapshot(ifChangedSince: nil)).operation(id: 1)?.outcome == .failed)
        state.source = source.status()
        let view = render(state).lines.joined(separator: "\n")
        #expect(view.contains("history last 1:52 of 1:52"), "\(view)")
        #expect(view.contains("▲ 0:05"), "the cursor is on the timeline: \(view)")
    }
}
