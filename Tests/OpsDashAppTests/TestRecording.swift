import Foundation
import OpsMonitor
import OpsWire

/// A recording a test writes: a temporary path (the test removes it), a writer with the default
/// keyframe policy, and a store recording the events to append.
struct TestRecording {
    let path: String
    let writer: RecordingWriter
    var store = MonitorStore()

    /// `source`: the header's (`local`, or `attach` for what a viewer records).
    init(_ name: String, source: String = "local") throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "opsdash-\(name)-\(UUID().uuidString).jsonl"
            ).path
        let header = RecordingHeader(app: "test", queue: "q", started: "2026-01-01T00:00:00Z", source: source)
        writer = try RecordingWriter(path: path, header: header, policy: .init())
        store.recordsEvents = true
    }

    /// A recording of `count` operations queued in one instant (`count` event lines at
    /// `instant`), closed; its path (the test removes it).
    static func queuedAtOnce(_ name: String, count: Int, at instant: Duration) throws -> String {
        var recording = try TestRecording(name)
        for index in 0..<count {
            _ = recording.store.add(
                name: "op\(index)", kind: .download, lifecycle: .ready, totalBytes: 100, dependencies: [], time: instant
            )
        }
        try recording.writer.append(recording.store.drainEvents())
        recording.writer.close()
        return recording.path
    }
}
