import Foundation
import OpsKit
import OpsMonitor
import OpsWire

/// A keyframe (a whole snapshot as JSON Lines) of a large queue: what a publisher encodes for
/// each late joiner or resync, and a recording every 10 s.
public enum KeyframeBench {
    /// A snapshot of `count` operations the way a busy queue looks: a third finished (a few
    /// failed, with a message), a third executing with progress, a third waiting on the one
    /// before; names like "photo-123.jpg"; the event log full.
    public static func snapshot(count: Int) -> QueueSnapshot {
        var store = MonitorStore(limits: .init(finishedOperations: count))
        let start = Duration.milliseconds(1)
        for index in 0..<count {
            let time = start + .microseconds(index)
            let id = store.add(
                name: "photo-\(index).jpg", kind: .download, lifecycle: index % 3 == 2 ? .waiting : .ready,
                totalBytes: 2_000_000, dependencies: index % 3 == 2 ? [index] : [], time: time)
            switch index % 3 {
            case 0:
                store.transition(id, to: .executing, time: time + .milliseconds(5))
                let failed = index % 30 == 0
                store.transition(
                    id, to: .finished, outcome: failed ? .failed : .succeeded,
                    message: failed ? "connection reset by peer" : nil, time: time + .milliseconds(900))
            case 1:
                store.transition(id, to: .executing, time: time + .milliseconds(5))
                store.progress(
                    id, completedBytes: 700_000, bytesPerSecond: 1_234_567.5, retries: 0,
                    time: time + .milliseconds(400))
            default:
                break
            }
        }
        return store.snapshot(time: .seconds(120))
    }

    /// Encodes `snapshot` as keyframe bytes; returns seconds and the lines written.
    public static func encode(_ snapshot: QueueSnapshot) -> (seconds: Double, lines: Int) {
        var bytes: [UInt8] = []
        let seconds = time { bytes = KeyframeEncoder.bytes(snapshot, seq: 42) }
        return (seconds, bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
    }
}
