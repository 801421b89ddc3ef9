import Foundation
import OpsDashUI
import OpsMonitor
import OpsWire
import Testing

@testable import OpsDashApp

/// An attach recording begins with the app's picture at the join rebuilt from the app's time 0:
/// the dashboard starts at the join, and Home jumps back there.
@Suite struct ReplayJoinTests {
    /// Two operations the app added at 1 s and 2 s, a join at 600 s (its keyframe), one event after.
    private func attachRecording() throws -> String {
        var recording = try TestRecording("join", source: "attach")
        for second in [1, 2] {
            _ = recording.store.add(
                name: "op\(second)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [],
                time: .seconds(second))
        }
        try recording.writer.append(
            recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(600)))
        recording.store.transition(1, to: .executing, time: .seconds(602))
        try recording.writer.append(recording.store.drainEvents(), keyframe: nil)
        recording.writer.close()
        return recording.path
    }

    @Test func theDashboardStartsAtTheJoinAndHomeGoesBackThere() throws {
        let path = try attachRecording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordingReader(path: path)
        #expect(reader.joinTime == .seconds(600))
        let command = try ReplayCommand.parse([path])
        #expect(command.start(in: reader) == .seconds(600))
        #expect(try ReplayCommand.parse([path, "--start-at", "0"]).start(in: reader) == .zero, "--start-at wins")
        let source = try ReplaySource(reader: reader, start: command.start(in: reader), speed: 1, idleLimit: nil)
        source.togglePause()
        // Paused a moment after it began playing at the join.
        #expect(source.position >= .seconds(600) && source.position < .seconds(601))
        #expect(source.snapshot(ifChangedSince: nil)?.operations.count == 2, "the picture at the join")
        source.seek(to: .seconds(1))
        _ = source.handle(.home, in: DashboardState(width: 80, height: 24))
        #expect(source.position == .seconds(600), "paused, so exactly there")
    }

    @Test func aLocalRecordingStartsAtZero() throws {
        var recording = try TestRecording("local-join")
        defer { try? FileManager.default.removeItem(atPath: recording.path) }
        _ = recording.store.add(
            name: "op", kind: .download, lifecycle: .ready, totalBytes: 1, dependencies: [], time: .seconds(5))
        try recording.writer.append(
            recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(9)))
        recording.writer.close()
        let reader = try RecordingReader(path: recording.path)
        #expect(reader.joinTime == .zero)
        #expect(try ReplayCommand.parse([recording.path]).start(in: reader) == .zero)
    }
}
