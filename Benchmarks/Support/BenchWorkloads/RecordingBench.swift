import Foundation
import OpsKit
import OpsMonitor
import OpsWire

public enum RecordingBench {
    /// Writes a recording of `events` events (operations added → ready → executing → progress
    /// → finished, 10 ms apart, default keyframe policy and store limits) to `path`; returns
    /// its recording time.
    @discardableResult
    public static func write(events: Int, to path: String) throws -> Duration {
        let header = RecordingHeader(app: "bench", queue: "bench", started: "2026-01-01T00:00:00Z", source: "local")
        let writer = try RecordingWriter(path: path, header: header)
        var store = MonitorStore()
        store.recordsEvents = true
        var time = Duration.zero
        for index in 0..<(events / 5) {
            time = .milliseconds(10 * Int64(index + 1))
            let id = store.add(
                name: "op-\(index)", kind: .download, lifecycle: .ready, totalBytes: 1_000, dependencies: [], time: time
            )
            store.transition(id, to: .executing, time: time)
            store.progress(id, completedBytes: 500, bytesPerSecond: 1e5, retries: 0, time: time)
            store.transition(
                id, to: .finished, outcome: index % 13 == 0 ? .failed : .succeeded, message: nil, time: time)
            let events = store.drainEvents()
            try writer.append(events, keyframe: writer.wantsKeyframe(at: time) ? store.snapshot(time: time) : nil)
        }
        writer.close()
        return time
    }

    /// Seconds to show the picture at each of `points` (fractions of the recording): nearest
    /// keyframe + events up to the point + the snapshot a frame is drawn from.
    public static func seek(_ reader: RecordingReader, at fraction: Double) throws -> Double {
        let target = reader.duration * fraction
        var shown = 0
        let seconds = try time {
            let snapshot = try reader.cursor(at: target).builder.snapshot()
            shown = snapshot.counts.total
        }
        precondition(shown > 0 || fraction == 0, "nothing shown at \(fraction)")
        return seconds
    }
}
