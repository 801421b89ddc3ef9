import Foundation
import OpsMonitor
@testable import OpsWire
import Testing

@testable import OpsDashApp

/// `.` in a replay applies one event line, however many share its time.
@Suite struct ReplayStepTests {
    @Test func eachStepAppliesOneEventLine() throws {
        var recording = try TestRecording("step")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Ten operations added at the same time, then a keyframe, then one more event.
        for index in 0..<10 {
            _ = recording.store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [],
                time: .seconds(1))
        }
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(1)))
        recording.store.transition(1, to: .executing, time: .seconds(2))
        try writer.append(recording.store.drainEvents(), keyframe: nil)
        writer.close()

        let source = try ReplaySource(
            reader: RecordingReader(path: path), start: .zero, speed: 1, idleLimit: nil)
        var seen: [Int] = []
        var said: [String] = []
        // Each operation is two lines (`added`, then its first `state`).
        for _ in 0..<21 {
            source.step()
            let snapshot = try #require(source.snapshot(ifChangedSince: nil))
            seen.append(snapshot.operations.count + snapshot.counts.executing)
            said.append(source.status().detail)
        }
        #expect(said[0] == "— step: seq 1 #1 op0 added", "the status says what the step applied")
        #expect(said[1] == "— step: seq 2 #1 op0 new → ready")
        #expect(said[20] == "— step: seq 21 #1 op0 ready → executing")
        #expect(seen == (1...20).map { $0 / 2 } + [11], "one line per step, then the one state change")
        #expect(source.isPaused)
        #expect(source.position == .seconds(2))
        source.togglePause()
        #expect(source.status().detail == "", "playing clears the step's line")
        #expect(source.status().playback?.state == .end, "playing on at the end")
        source.step()
        #expect(source.status().playback?.state == .end, "a step at the end changes nothing")
    }
}
