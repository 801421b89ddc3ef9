// Item 7c: what a publisher spends on a keyframe (late joiner, resync) and a recording on one.
import BenchWorkloads
import Foundation
import OpsMonitor

/// 7c. Keyframe encoding: snapshot lines of a large queue encoded per second.
func keyframeEncode(_ run: RatioRun) -> [Row] {
    let count = run.size.keyframeOperations
    log("7c. Keyframe encode (\(count) operations)")
    let snapshot = KeyframeBench.snapshot(count: count)
    let expected = snapshot.operations.count + snapshot.log.count + 2
    var complete = true
    var seconds: [Double] = []
    let rate = Stats(
        (0..<run.reps).map { _ in
            let (elapsed, lines) = KeyframeBench.encode(snapshot)
            complete = complete && lines == expected
            seconds.append(elapsed)
            return Double(lines) / elapsed
        })
    let perKeyframe = Stats(seconds)
    return [
        Row(
            item: "7c. Keyframe encode",
            compared: "snapshot lines (\(count) operations + \(snapshot.log.count) log entries) encoded per second",
            a: rate, b: nil, unit: "ev/s", ratio: rate.median / 500_000,
            ratioText: String(format: "%.2f× goal", rate.median / 500_000),
            budget: complete ? "≥ 500k/s (goal)" : "≥ 500k/s (goal); **wrong line count**",
            met: complete && rate.median >= 500_000),
        Row(
            item: "7c. (one keyframe)", compared: "seconds to encode that keyframe", a: perKeyframe, b: nil,
            unit: "s", ratio: perKeyframe.median, ratioText: "—", budget: "—", met: nil),
    ]
}
