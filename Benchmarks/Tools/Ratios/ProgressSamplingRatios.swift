// Item 9: reading Foundation `Progress` for 1,000 running operations.
import BenchWorkloads
import Foundation

/// 9. Foundation Progress sampling: the reader thread's share of a core with and without it.
func progressSampling(_ run: RatioRun) -> [Row] {
    let operations = run.smoke ? 100 : 1_000
    let duration: Duration = run.smoke ? .milliseconds(300) : .seconds(3)
    let rounds = run.smoke ? 1 : 7
    log("9. Foundation Progress sampling, \(operations) running operations, \(rounds) × \(duration) per side")
    var sampled: [Double] = [], baseline: [Double] = [], growth: [Double] = []
    for _ in 0..<rounds {
        let without = ProgressSamplingBench.run(operations: operations, duration: duration, sampled: false)
        let with = ProgressSamplingBench.run(operations: operations, duration: duration, sampled: true)
        if with.moved < operations { log("9. only \(with.moved) of \(operations) operations showed progress") }
        baseline.append(without.share)
        sampled.append(with.share)
        growth.append(with.share - without.share)
    }
    let cost = Stats(growth).median
    return [
        Row(
            item: "9. Foundation Progress",
            compared:
                "\(operations) running operations, each Progress advanced every 10 ms; monitor read every 10 ms (sampling at most every 50 ms): reader thread CPU (CLOCK_THREAD_CPUTIME_ID) with vs without Progress to read",
            a: Stats(sampled), b: Stats(baseline), unit: "core", ratio: cost,
            ratioText: String(format: "%+.2f%% of a core (median of %d rounds)", cost * 100, rounds),
            budget: "< 5% of a core", met: cost < 0.05)
    ]
}
