import OpsMonitor

/// Deterministic queue snapshots for measuring terminal output: downloads whose progress
/// advances by a fixed amount each frame, on a clock that ticks only when asked to.
enum TransferSnapshots {
    static let mb: Int64 = 1_000_000

    /// `executing` downloads running and `ready` more waiting for a slot, at frame `frame`.
    ///
    /// Download `i` is 10 MB, starts `(i × 37) mod 90` percent done and moves at
    /// `(1 + i mod 4) × 0.5` MB/s; a frame is 1/20 s of transfer. The clock reads
    /// `65 s + frame × clockStep`, so with `clockStep` zero only progress changes.
    static func downloads(
        executing: Int, ready: Int = 0, frame: Int, clockStep: Duration = .zero,
        suspended: Bool = false
    ) -> QueueSnapshot {
        var operations: [OperationSnapshot] = []
        var counts = StateCounts()
        var completed: Int64 = 0
        var total: Int64 = 0
        var rate = 0.0
        for id in 1...(executing + ready) {
            let size = 10 * mb
            let perSecond = Double(1 + id % 4) * 0.5 * Double(mb)
            let start = size * Int64((id * 37) % 90) / 100
            let isRunning = id <= executing
            let done = isRunning ? min(size, start + Int64(perSecond / 20) * Int64(frame)) : 0
            operations.append(
                OperationSnapshot(
                    id: id, name: "photo-\(id).jpg", kind: .download,
                    lifecycle: isRunning ? .executing : .ready, completedUnits: done,
                    totalUnits: size, unitsPerSecond: isRunning ? perSecond : 0, addedAt: .zero,
                    startedAt: isRunning ? .seconds(60) : nil))
            if isRunning {
                counts.executing += 1
                rate += perSecond
            } else {
                counts.ready += 1
            }
            completed += done
            total += size
        }
        return QueueSnapshot(
            time: .seconds(65) + clockStep * frame, isSuspended: suspended,
            maxConcurrentOperationCount: max(1, executing), counts: counts,
            completedBytes: completed, totalBytes: total, bytesPerSecond: rate,
            operations: ChunkedArray(operations), version: UInt64(frame + 1))
    }

    /// A paused queue with nothing running: `ready` downloads held by the pause, `seconds`
    /// into the pause. Only the header's elapsed clock changes from one second to the next.
    static func paused(ready: Int, seconds: Int) -> QueueSnapshot {
        var snapshot = downloads(executing: 0, ready: ready, frame: 0, suspended: true)
        snapshot.time = .seconds(65 + seconds)
        snapshot.version = UInt64(seconds + 1)
        return snapshot
    }
}
