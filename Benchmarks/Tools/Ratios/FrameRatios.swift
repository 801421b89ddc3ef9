// Items 3 and 3b: frame cost.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

/// 3. Frame cost.
func frameCost(_ run: RatioRun) -> [Row] {
    let (size, smoke, reps) = (run.size, run.smoke, run.reps)
    var rows: [Row] = []
    log("3. frame cost")
    let frames = smoke ? 200 : 2_000
    var results: [(Int, Stats)] = []
    for n in size.frameSizes {
        let bench = FrameBench(tracked: n)
        _ = bench.measure(frames: 100)
        results.append((n, Stats((0..<reps).map { _ in bench.measure(frames: frames) })))
    }
    let base = results[0].1
    for (n, stats) in results.dropFirst() {
        let ratio = stats.median / base.median
        let budget = n == 100_000 ? "≤ 1.5× and < 1 ms" : "flat (≤ 1.5×)"
        rows.append(
            Row(
                item: "3. Frame cost", compared: "snapshot+reduce+render+diff 200×60: \(n) vs 100 tracked ops",
                a: stats, b: base, unit: "s", ratio: ratio, ratioText: String(format: "%.2f×", ratio),
                budget: budget, met: ratio <= 1.5 && stats.p90 < 1e-3))
    }
    return rows
}

/// 3b. Busy frame at a realistic change rate.
func busyFrame(_ run: RatioRun) -> [Row] {
    let (smoke, reps) = (run.smoke, run.reps)
    var rows: [Row] = []
    log("3b. busy frame 120×40, 50 finishes/s, 10 moving bars")
    let bench = BusyFrameBench()
    _ = bench.measure(frames: 200)
    let frames = smoke ? 200 : 2_000
    let wall = Stats((0..<reps).map { _ in bench.measure(frames: frames) })
    rows.append(
        Row(
            item: "3b. Busy frame (wall)",
            compared:
                "snapshot+reduce+render+diff 120×40, sort by state, 10 bars moving, 2.5 finishes per frame (50/s at 20 fps): wall time",
            a: wall, b: nil, unit: "s", ratio: .nan, ratioText: "—", budget: "—", met: nil))
    // The budget is main-thread CPU: at 20 fps, the share of one core the frames cost.
    let cpu = Stats((0..<reps).map { _ in bench.measureCPU(frames: frames) })
    let share = cpu.median * 20
    rows.append(
        Row(
            item: "3b. Busy frame (CPU)", compared: "same, main-thread CPU time per frame (CLOCK_THREAD_CPUTIME_ID)",
            a: cpu, b: nil, unit: "s", ratio: share,
            ratioText: String(format: "%.2f%% of a core at 20 fps", share * 100), budget: "≤ 0.6 ms (≤ 1.2% of a core)",
            met: cpu.median <= 0.6e-3))
    return rows
}

/// 3q. Quiet frame: one progress report a frame, nothing finishing (1–3 rows change); `visible`
/// (3r) sorts by state so the moving bar is a table row, else by id (finished rows on screen).
func quietFrame(_ run: RatioRun, visible: Bool) -> [Row] {
    let (smoke, reps) = (run.smoke, run.reps)
    let item = visible ? "3r" : "3q"
    let sort = visible ? "sort by state, the moving bar on screen" : "sort by id, finished rows on screen"
    log("\(item). quiet frame 120×40, one bar moving, \(sort)")
    let bench = QuietFrameBench(visible: visible)
    let rows = bench.changedRows(frames: 200)
    let frames = smoke ? 200 : 2_000
    let cpu = Stats((0..<reps).map { _ in bench.measureCPU(frames: frames) })
    return [
        Row(
            item: "\(item). Quiet frame (CPU)",
            compared:
                "snapshot+reduce+render+diff 120×40, \(sort), one progress report a frame (\(String(format: "%.1f", rows)) rows changed): main-thread CPU per frame",
            a: cpu, b: nil, unit: "s", ratio: .nan, ratioText: "—", budget: "—", met: nil)
    ]
}
