import Foundation
import OpsDashUI
import OpsKit
import OpsMonitor

public final class BusyFrameBench: FrameWorkload, @unchecked Sendable {
    var store: MonitorStore
    var state: DashboardState
    let renderer: FrameRenderer
    var running: [Int]
    var nextReady: Int
    var frameNumber = 0
    let total: Int
    let bytes: Int64 = 2_000_000

    public init(operations: Int = 2_000, slots: Int = 10, width: Int = 120, height: Int = 40) {
        var store = downloadStore(operations: operations, slots: slots, bytes: bytes)
        running = Array(1...slots)
        for id in running { store.transition(id, to: .executing, time: .zero) }
        nextReady = slots + 1
        total = operations
        self.store = store
        var state = DashboardState(width: width, height: height, glyphs: .unicode)
        // Sorted by state, running first: the moving bars and the finishes are on screen.
        state.sort = .state
        self.state = state
        self.renderer = FrameRenderer()
    }

    /// One frame: 50 ms of progress on every running operation, 2 or 3 finishes (alternately,
    /// 2.5 per frame = 50/s at 20 fps) replaced by the next ready ones, then snapshot + reduce +
    /// render + diff. Returns the number of changed runs.
    @inline(never)
    public func frame() -> Int {
        frameNumber += 1
        let time = Duration.milliseconds(50 * frameNumber)
        // As the dashboard's loop does (`runDashboard(refresh:)`), the picture shown is let go
        // of before the store changes, so the store changes its chunks in place.
        state.snapshot = QueueSnapshot(time: state.snapshot.time)
        for (slot, id) in running.enumerated() {
            let done = Int64((frameNumber * (slot + 3) * 9_973) % Int(bytes))
            store.progress(
                id, completedBytes: done, bytesPerSecond: Double(1_000_000 + slot * 50_000),
                retries: 0, time: time)
        }
        let finishes = frameNumber % 2 == 0 ? 2 : 3
        for _ in 0..<finishes {
            let slot = (frameNumber * 7 + nextReady) % running.count
            store.transition(running[slot], to: .finished, outcome: .succeeded, time: time)
            if nextReady > total {
                // Start over with fresh operations so the run never ends.
                let id = store.add(
                    name: "chunk-\(nextReady).bin", kind: .download, lifecycle: .ready,
                    totalBytes: bytes, dependencies: [], time: time)
                nextReady = id
            }
            store.transition(nextReady, to: .executing, time: time)
            running[slot] = nextReady
            nextReady += 1
        }
        let snapshot = store.snapshot(time: time)
        _ = reduce(&state, .tick(snapshot))
        return renderer.frame(for: state).count
    }
}
