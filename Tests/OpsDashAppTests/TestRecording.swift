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
}
