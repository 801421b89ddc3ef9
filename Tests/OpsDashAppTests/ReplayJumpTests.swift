import Foundation
import OpsDashUI
import OpsMonitor
import Testing

@testable import OpsDashApp
@testable import OpsWire

/// `g` in a replay jumps to when the selected operation last changed state in the whole
/// recording (e.g. its failure), forward or back, and pauses there.
@Suite struct ReplayJumpTests {
    @Test func gJumpsToTheSelectedOperationsFailureFromEitherSide() throws {
        var recording = try TestRecording("jump")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for index in 1...2 {
            _ = recording.store.add(
                name: "photo-\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [],
                time: .seconds(1))
        }
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(1)))
        recording.store.transition(1, to: .executing, time: .seconds(2))
        recording.store.transition(1, to: .finished, outcome: .failed, message: "HTTP 503", time: .seconds(65))
        recording.store.transition(2, to: .executing, time: .seconds(80))
        try writer.append(recording.store.drainEvents(), keyframe: nil)
        writer.close()

        let source = try ReplaySource(reader: RecordingReader(path: path), start: .zero, speed: 1, idleLimit: nil)
        var state = DashboardState(width: 120, height: 40)
        state.selectedID = 1
        #expect(source.handle(.character("g"), in: state))
        #expect(source.isPaused)
        #expect(source.position == .seconds(65))
        let failed = try #require(source.snapshot(ifChangedSince: nil)?.operation(id: 1))
        #expect(failed.outcome == .failed, "the picture shows the failure")
        #expect(source.status().detail == "— #1 photo-1: failed at 1:05")

        source.seek(to: .seconds(80))
        #expect(source.handle(.character("g"), in: state))
        #expect(source.position == .seconds(65), "g jumps back too")

        state.selectedID = 9
        #expect(source.handle(.character("g"), in: state))
        #expect(source.status().detail == "— g: #9 has no state change in the recording's last picture")
        #expect(source.position == .seconds(65))
    }
}
