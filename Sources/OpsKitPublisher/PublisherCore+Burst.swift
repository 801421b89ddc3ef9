import NIOCore
import OpsKit
import OpsMonitor

extension PublisherCore {
    // MARK: Bursts

    /// The `resync` reason viewers are given when a burst starts.
    static let burstReason = "burst"

    /// The queue changes faster than viewers can follow (`BurstDetector`): `events` are
    /// numbered but not encoded, and every streaming viewer is told `resync` (reason `burst`)
    /// and waits for a keyframe, with heartbeats meanwhile. The caller stops recording events
    /// and calls `burstKeyframe` now and then and `endBurst` once the queue calms down.
    @_spi(OpsDashInternals) public mutating func beginBurst(dropping events: [MonitorEvent], monitorTime: Duration) {
        self.monitorTime = max(self.monitorTime, monitorTime)
        skip(events)
        ring.clear()
        isInBurst = true
        for (id, var connection) in connections {
            guard case .streaming = connection.phase else { continue }
            if !connection.wantsKeyframe {
                connection.wantsKeyframe = true
                connection.pending = []
                connection.notice = resyncLine(Self.burstReason)
                counted.resyncs[Self.burstReason, default: 0] += 1
            }
            connections[id] = connection
        }
    }

    /// During a burst: every streaming viewer gets a fresh picture (`snapshot`, taken now),
    /// after a `resync` if it had one before; no deltas follow until the next keyframe.
    @_spi(OpsDashInternals) public mutating func burstKeyframe(_ snapshot: QueueSnapshot) {
        guard isInBurst else { return }
        monitorTime = max(monitorTime, snapshot.time)
        sendKeyframe(snapshot)
    }

    /// The burst is over: `snapshot` is the picture the monitor's recording (on again) starts
    /// from. Every streaming viewer gets it as a keyframe (nothing was recorded since its
    /// last one) and deltas follow it again.
    @_spi(OpsDashInternals) public mutating func endBurst(snapshot: QueueSnapshot) {
        guard isInBurst else { return }
        monitorTime = max(monitorTime, snapshot.time)
        sendKeyframe(snapshot)
        recordingResumed()
        teachNames(from: snapshot)
    }
}
