// Item 5: dependency-heavy queues.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

/// 5. Dependency-heavy queues.
func dependencyChains(_ run: RatioRun) -> [Row] {
    let (size, smoke) = (run.size, run.smoke)
    var rows: [Row] = []
    log("5. chains: plain \(size.plainChains), observable \(size.observableChains), fan-in \(size.fanIn)")
    var plain: [Int: Double] = [:]
    for n in size.plainChains {
        log("   plain chain \(n) (once)")
        plain[n] = ChainBench.chain(length: n, observable: false)
    }
    var observable: [Int: Stats] = [:]
    for n in Set(size.observableChains).union(size.plainChains).sorted() {
        observable[n] = Stats((0..<(smoke ? 1 : 5)).map { _ in ChainBench.chain(length: n, observable: true) })
    }
    for (n, o) in observable.sorted(by: { $0.key < $1.key }) {
        if let p = plain[n] {
            let ratio = p / o.median
            let budget = n >= 20_000 ? "≥ 20×" : "≥ 20× at 20k (trend)"
            rows.append(
                Row(
                    item: "5. Chain \(n)",
                    compared: "chain of \(n): ObservableOperationQueue vs plain OperationQueue (plain run once)",
                    a: o, b: Stats([p]), unit: "s", ratio: ratio, ratioText: String(format: "%.0f× faster", ratio),
                    budget: budget, met: n >= 20_000 ? ratio >= 20 : nil))
        } else if n >= 20_000, let p10 = plain[10_000] {
            // Plain at 20k is ~4× plain at 10k (quadratic); lower bound: plain 20k ≥ plain 10k × 2.
            let bound = 2 * p10 / o.median
            rows.append(
                Row(
                    item: "5. Chain \(n)",
                    compared:
                        "chain of \(n): ObservableOperationQueue; plain 20k not run (OPSDASH_BENCH_FULL=1) — lower bound 2× plain 10k",
                    a: o, b: nil, unit: "s", ratio: bound, ratioText: String(format: "≥ %.0f× faster (bound)", bound),
                    budget: "≥ 20×", met: bound >= 20))
        } else {
            rows.append(
                Row(
                    item: "5. Chain \(n)",
                    compared: "chain of \(n): ObservableOperationQueue (no plain run at this size)",
                    a: o, b: nil, unit: "s", ratio: .nan, ratioText: "—", budget: "—", met: nil))
        }
    }
    let fan = Stats((0..<(smoke ? 1 : 3)).map { _ in ChainBench.fanIn(width: size.fanIn, observable: true) })
    rows.append(
        Row(
            item: "5. Fan-in", compared: "one op depending on \(size.fanIn): ObservableOperationQueue drains",
            a: fan, b: nil, unit: "s", ratio: .nan, ratioText: "—", budget: "works", met: true))
    return rows
}
