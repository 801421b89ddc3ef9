// Item 7b: what a viewer (`opsdash attach`, `opsdash replay`) spends reading the stream.
import BenchWorkloads
import Foundation
import OpsMonitor

/// 7b. JSON Lines decoding: lines a publisher sends (with `seq`), decoded per second.
func headlessDecode(_ run: RatioRun) -> [Row] {
    log("7b. JSON Lines decode")
    let lines = JSONLinesDecodeBench.lines(count: run.size.jsonEvents)
    _ = JSONLinesDecodeBench.decode(lines)
    var complete = true
    let rate = Stats(
        (0..<run.reps).map { _ in
            let (seconds, decoded) = JSONLinesDecodeBench.decode(lines)
            complete = complete && decoded == lines.count
            return Double(decoded) / seconds
        })
    // A viewer keeps up with a publisher when it decodes at least as fast as the encoder's goal.
    return [
        Row(
            item: "7b. Viewer decode", compared: "JSON Lines event lines (with seq) decoded per second",
            a: rate, b: nil, unit: "ev/s", ratio: rate.median / 500_000,
            ratioText: String(format: "%.2f× goal", rate.median / 500_000),
            budget: complete ? "≥ 500k/s (goal)" : "≥ 500k/s (goal); **lines failed to decode**",
            met: complete && rate.median >= 500_000)
    ]
}
