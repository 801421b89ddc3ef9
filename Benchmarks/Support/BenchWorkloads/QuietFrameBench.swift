import Foundation
import OpsDashUI
import OpsKit
import OpsMonitor

/// A frame that changes little: one running operation's progress moves, nothing finishes, so
/// 1–3 screen rows change (issue #28 goal 1, "frame cost follows change"). The dashboard
/// loop in situ at 5 finishes/s spends most of its drawing frames like this.
public final class QuietFrameBench: FrameWorkload, @unchecked Sendable {
    var store: MonitorStore
    var state: DashboardState
    let renderer: FrameRenderer
    let running: [Int]
    var frameNumber = 0
    let bytes: Int64 = 2_000_000_000

    /// `operations` operations of which the last `slots` run, the others finished. Sorted by
    /// id (`visible` false: the table shows finished rows only, the moving bar is below them, as
    /// in the in-situ run sorted by id) or by state (`visible`: the moving bar is a table row).
    /// 60 operations, as the in-situ run at 5 finishes/s has after 12 s: the running ones share
    /// the visible rows' chunk (`ChunkedArray.chunkSize`).
    public init(operations: Int = 60, slots: Int = 10, visible: Bool = false, width: Int = 120, height: Int = 40) {
        var store = downloadStore(operations: operations, slots: slots, bytes: bytes)
        let finished = max(0, operations - slots)
        for id in 1...max(1, operations) where id <= operations {
            store.transition(id, to: .executing, time: .milliseconds(id))
            guard id <= finished else { continue }
            store.progress(
                id, completedBytes: bytes, bytesPerSecond: 1_000_000, retries: 0, time: .milliseconds(id + 1))
            store.transition(id, to: .finished, outcome: .succeeded, time: .milliseconds(id + 1))
        }
        running = Array((finished + 1)...max(finished + 1, operations))
        self.store = store
        var state = DashboardState(width: width, height: height, glyphs: .unicode)
        state.sort = visible ? .state : .id
        self.state = state
        self.renderer = FrameRenderer()
    }

    /// One frame: 50 ms later, one running operation (each in turn) reports progress, then
    /// snapshot + reduce + render + diff. Returns the number of changed runs.
    @inline(never)
    public func frame() -> Int {
        draw().count
    }

    /// Screen rows changed per frame, averaged over `frames` frames (what the workload is
    /// meant to change: 1–3).
    public func changedRows(frames: Int) -> Double {
        var rows = 0
        for _ in 0..<frames {
            var last = -1
            for run in draw() where run.y != last {
                rows += 1
                last = run.y
            }
        }
        return Double(rows) / Double(max(1, frames))
    }

    /// The runs of the next frame.
    private func draw() -> [CellRun] {
        frameNumber += 1
        let time = Duration.seconds(1) + .milliseconds(50 * frameNumber)
        // As the dashboard's loop does, the picture shown is let go of before the store changes.
        state.snapshot = QueueSnapshot(time: state.snapshot.time)
        let slot = frameNumber % running.count
        // A megabyte more each turn: the figures move, the bar seldom does.
        let done = min(bytes - 1, Int64(frameNumber / running.count + 1) * 1_048_576 + Int64(slot))
        store.progress(
            running[slot], completedBytes: done, bytesPerSecond: Double(1_000_000 + slot * 50_000), retries: 0,
            time: time)
        let snapshot = store.snapshot(time: time)
        _ = reduce(&state, .tick(snapshot))
        return renderer.frame(for: state)
    }
}
