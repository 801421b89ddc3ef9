import Foundation
import OpsMonitor
import OpsWire
import Testing

@testable import OpsDashApp

/// A recording whose last line is torn: the warning said when the replay opens is on show again
/// in the header when playback reaches that end, and goes when it leaves the end.
@Suite struct ReplayTornEndTests {
    @Test func theTornEndIsSaidAgainWhenPlaybackReachesIt() throws {
        var recording = try TestRecording("torn-end")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = recording.store.add(
            name: "op", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .seconds(1))
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(1)))
        recording.store.transition(1, to: .executing, time: .seconds(20))
        try writer.append(recording.store.drainEvents(), keyframe: nil)
        writer.close()
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"seq\":99,\"t\":21.0,\"ev".utf8))
        handle.closeFile()

        let reader = try RecordingReader(path: path)
        let warning = try #require(reader.warning)
        #expect(warning.contains("last line is incomplete (torn write)"))
        let source = try ReplaySource(reader: reader, start: .zero, speed: 1, idleLimit: nil)
        _ = source.snapshot(ifChangedSince: nil)
        #expect(source.status().playback?.state == .playing)
        #expect(source.status().detail == "", "not while playing: the message line said it at the start")
        source.seek(to: reader.duration)
        _ = source.snapshot(ifChangedSince: nil)
        #expect(source.status().playback?.state == .end)
        #expect(source.status().detail == "— warning: \(warning)")
        source.seek(to: .seconds(5))
        source.togglePause()
        #expect(source.status().detail == "", "away from the end it goes")
    }

    @Test func aWholeRecordingSaysNothingAtItsEnd() throws {
        var recording = try TestRecording("whole-end")
        let (path, writer) = (recording.path, recording.writer)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = recording.store.add(
            name: "op", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: .seconds(1))
        try writer.append(recording.store.drainEvents(), keyframe: recording.store.snapshot(time: .seconds(1)))
        writer.close()
        let source = try ReplaySource(reader: RecordingReader(path: path), start: .zero, speed: 1, idleLimit: nil)
        source.seek(to: .seconds(1))
        _ = source.snapshot(ifChangedSince: nil)
        #expect(source.status().playback?.state == .end)
        #expect(source.status().detail == "")
    }
}
