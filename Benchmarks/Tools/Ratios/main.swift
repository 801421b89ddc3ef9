// Side-by-side ratios for the OpsDash benchmark budgets (issue #5), measured in one process so
// that machine noise hits both sides of each ratio alike. Prints a Markdown table.
//
//   swift run -c release --package-path Benchmarks Ratios            # standard run
//   OPSDASH_BENCH_FULL=1 swift run -c release --package-path Benchmarks Ratios   # + plain 20k chain
//   swift run -c release --package-path Benchmarks Ratios --smoke    # CI: tiny, fast, no thresholds
//   … Ratios --only=2 --smoke                                        # one item (e.g. under valgrind)
import BenchWorkloads
import OpsKit
import OpsMonitor
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let size: BenchSize =
    arguments.contains("--smoke")
    ? .smoke
    : arguments.contains("--full") ? .full : BenchSize.fromEnvironment
let smoke = size.isSmoke
let reps = smoke ? 3 : 15
/// `--only=2,5` runs only those items (e.g. to profile one under valgrind).
let only: Set<String>? = arguments.first { $0.hasPrefix("--only=") }
    .map { Set($0.dropFirst("--only=".count).split(separator: ",").map(String.init)) }
func want(_ item: String) -> Bool { only?.contains(item) ?? true }

var rows: [Row] = []
let started = ContinuousClock.now

let run = RatioRun(size: size, smoke: smoke, reps: reps)
if want("1") { rows += kvoDelivery(run) }
if want("1b") || want("1") { rows += kvoSubscription(run) }
if want("2") { rows += monitoringOverhead(run) }
if want("2b") { rows += metricsOverhead(run) }
if want("2c") { rows += recordingSeek(run) }

/// `--profile-queue=<plain|observable|monitored>` runs only that side of item 2, ten times (or
/// `--profile-runs=N`), for a profiler: `Ratios --only=none --profile-queue=observable` under
/// `perf record -g`.
if let kind = arguments.first(where: { $0.hasPrefix("--profile-queue=") })
    .flatMap({ QueueKind.profileName(String($0.dropFirst("--profile-queue=".count))) })
{
    let runs = arguments.first { $0.hasPrefix("--profile-runs=") }.flatMap {
        Int($0.dropFirst("--profile-runs=".count))
    }
    for _ in 0..<(runs ?? 10) {
        print(String(format: "%.3f s", QueueBench.run(kind, count: size.queueOperations)))
    }
    exit(0)
}

/// `--only=none --profile-kvo` runs item 1's delivery and its two baselines once each, 1,000,000 iterations,
/// for `kvo-instructions.sh` (callgrind).
if arguments.contains("--profile-kvo") {
    _ = KVOBench.deliveryToOneObserver(1_000_000)
    _ = KVOBench.directClosure(1_000_000)
    _ = KVOBench.lockedStoreAndClosure(1_000_000)
    exit(0)
}

if want("3") { rows += frameCost(run) }
if want("3b") || want("3") { rows += busyFrame(run) }
if want("3q") || want("3") { rows += quietFrame(run, visible: false) }
if want("3r") || want("3") { rows += quietFrame(run, visible: true) }
if want("4") { rows += memory(run) }
if want("5") { rows += dependencyChains(run) }
if want("7") { rows += headlessThroughput(run) }
if want("7b") || want("7") { rows += headlessDecode(run) }
if want("7c") || want("7") { rows += keyframeEncode(run) }
if want("9") { rows += progressSampling(run) }

let elapsed = ContinuousClock.now - started

// Output
print("| Item | What is compared | Median | p90 | Baseline median | Baseline p90 | Ratio | Budget | Met? |")
print("|---|---|---|---|---|---|---|---|---|")
for row in rows {
    let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
    print(
        "| \(row.item) | \(row.compared) | \(cell(row.a, row.unit, p90: false)) | \(cell(row.a, row.unit, p90: true)) | \(cell(row.b, row.unit, p90: false)) | \(cell(row.b, row.unit, p90: true)) | \(row.ratioText) | \(row.budget) | \(met) |"
    )
}
print("")
print(
    "Mode: \(size), \(reps) repetitions per timing (alternating sides); total \(String(format: "%.1f", elapsed.seconds)) s."
)
