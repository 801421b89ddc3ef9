import Foundation
import OpsDashUI
import OpsKit
import OpsMonitor

/// A frame pipeline over a synthetic store of `tracked` operations (mix of waiting, ready,
/// executing with progress), as the dashboard runs it.
public final class FrameBench: FrameWorkload, @unchecked Sendable {
    var store: MonitorStore
    var state: DashboardState
    let renderer = FrameRenderer()
    var tick = 0
    let executingIDs: [Int]

    public init(tracked: Int, width: Int = 200, height: Int = 60) {
        var store = MonitorStore()
        var executing: [Int] = []
        for index in 0..<tracked {
            let lifecycle: Lifecycle = index % 10 == 0 ? .ready : .waiting
            let id = store.add(
                name: "download-\(index).bin", kind: index % 2 == 0 ? .download : .upload, lifecycle: lifecycle,
                totalBytes: 1_000_000, dependencies: index > 0 && lifecycle == .waiting ? [index] : [], time: .zero)
            if index % 100 == 0 {
                store.transition(id, to: .executing, time: .milliseconds(1))
                executing.append(id)
            }
        }
        self.store = store
        self.executingIDs = executing
        self.state = DashboardState(width: width, height: height, glyphs: .unicode)
    }

    /// One frame: one progress change in the store (as between two ticks), then
    /// snapshot + reduce + render + diff, as the dashboard's run loop does them (`FrameRenderer`).
    /// Returns the number of changed runs.
    @inline(never)
    public func frame() -> Int {
        tick += 1
        let time = Duration.milliseconds(tick)
        if !executingIDs.isEmpty {
            let id = executingIDs[tick % executingIDs.count]
            store.progress(id, completedBytes: Int64(tick % 1_000_000), bytesPerSecond: 1e6, retries: 0, time: time)
        }
        let snapshot = store.snapshot(time: time)
        _ = reduce(&state, .tick(snapshot))
        return renderer.frame(for: state).count
    }
}

/// The dashboard's busy frame as operators see it: a 120×40 terminal over a burst-like run with
/// 10 slots, where every frame (20 fps, 50 ms of simulated time) moves the 10 running bars and
/// finishes 2 or 3 operations (50 finishes/s), each replaced by the next ready one. New
/// operations keep coming and the store keeps 2,000 finished ones (plus its eviction slack), so
/// the cost per frame doesn't grow with the length of the run.
