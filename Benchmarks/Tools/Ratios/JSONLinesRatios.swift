// Item 7: headless throughput.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

/// 7. Headless throughput.
func headlessThroughput(_ run: RatioRun) -> [Row] {
    let (size, reps) = (run.size, run.reps)
    var rows: [Row] = []
    log("7. JSON Lines")
    let events = JSONLinesBench.events(count: size.jsonEvents)
    let fd = JSONLinesBench.openDevNull()
    _ = JSONLinesBench.encodeAndWrite(events, fd: fd)
    let rate = Stats((0..<reps).map { _ in Double(events.count) / JSONLinesBench.encodeAndWrite(events, fd: fd) })
    close(fd)
    // For rates, the slow side is the low percentile: report p10 in the p90 column.
    let low = Stats([rate.percentile(0.1)])
    rows.append(
        Row(
            item: "7. Headless throughput", compared: "JSON Lines events encoded + written to /dev/null per second",
            a: Stats([rate.median, low.median]), b: nil, unit: "ev/s", ratio: rate.median / 500_000,
            ratioText: String(format: "%.2f× goal", rate.median / 500_000), budget: "≥ 500k/s (goal)",
            met: rate.median >= 500_000))
    rows[rows.count - 1].a = rate
    return rows
}
