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

func log(_ text: String) {
    FileHandle.standardError.write(Data("[ratios] \(text)\n".utf8))
}

struct Row {
    var item: String
    var compared: String
    var a: Stats  // measured side
    var b: Stats?  // baseline side
    var unit: String
    var ratio: Double
    var ratioText: String
    var budget: String
    var met: Bool?
}

var rows: [Row] = []

func fmt(_ value: Double, _ unit: String) -> String {
    switch unit {
    case "s":
        if value < 1e-3 { return String(format: "%.1f µs", value * 1e6) }
        if value < 1 { return String(format: "%.2f ms", value * 1e3) }
        return String(format: "%.2f s", value)
    case "ns": return String(format: "%.1f ns", value)
    case "B": return String(format: "%.0f B", value)
    case "MiB": return String(format: "%.1f MiB", value)
    case "ev/s": return String(format: "%.0f k/s", value / 1e3)
    default: return String(format: "%.3g %@", value, unit)
    }
}

/// Alternates the two sides so drift hits both; returns stats of each.
func sideBySide(_ reps: Int, _ a: () -> Double, _ b: () -> Double) -> (Stats, Stats) {
    var sa: [Double] = [], sb: [Double] = []
    for _ in 0..<reps {
        sb.append(b())
        sa.append(a())
    }
    return (Stats(sa), Stats(sb))
}

let started = ContinuousClock.now

// 1. KVO delivery
if want("1") {
    log("1. KVO delivery")
    let n = smoke ? 100_000 : 2_000_000
    _ = KVOBench.deliveryToOneObserver(10_000)  // warm up the key table
    let (kvo, closure) = sideBySide(reps, { KVOBench.deliveryToOneObserver(n) }, { KVOBench.directClosure(n) })
    rows.append(
        Row(
            item: "1. KVO delivery", compared: "one change → one observer ([.new]) vs direct call of a stored closure",
            a: kvo, b: closure, unit: "ns", ratio: kvo.median / closure.median,
            ratioText: String(format: "%.1f×", kvo.median / closure.median), budget: "≤ 3×",
            met: kvo.median / closure.median <= 3))
    let (kvo2, locked) = sideBySide(reps, { KVOBench.deliveryToOneObserver(n) }, { KVOBench.lockedStoreAndClosure(n) })
    rows.append(
        Row(
            item: "1. KVO delivery (fair baseline)",
            compared: "same vs Mutex store + closure call (hand-written observable property)",
            a: kvo2, b: locked, unit: "ns", ratio: kvo2.median / locked.median,
            ratioText: String(format: "%.1f×", kvo2.median / locked.median), budget: "≤ 3× (reading of the budget)",
            met: kvo2.median / locked.median <= 3))
    let (silent, store) = sideBySide(reps, { KVOBench.publishWithoutObservers(n) }, { KVOBench.lockedStore(n) })
    rows.append(
        Row(
            item: "1. KVO, no observers", compared: "publish with no observer vs Mutex store alone",
            a: silent, b: store, unit: "ns", ratio: silent.median / store.median,
            ratioText: String(format: "%.1f× (+%.1f ns)", silent.median / store.median, silent.median - store.median),
            budget: "a few ns; 0 allocations (see package-benchmark mallocCountTotal)",
            met: silent.median - store.median < 10))
    let (fast, store2) = sideBySide(reps, { KVOBench.publishWithoutObserversFastPath(n) }, { KVOBench.lockedStore(n) })
    rows.append(
        Row(
            item: "1. (no observers, fast path)",
            compared:
                "same with the no-observer check specialised in the caller (what an @inlinable fast path gives) vs Mutex store",
            a: fast, b: store2, unit: "ns", ratio: fast.median / store2.median,
            ratioText: String(format: "%.1f× (+%.1f ns)", fast.median / store2.median, fast.median - store2.median),
            budget: "—", met: nil))
}

// 1b. KVO subscription cost (the monitor makes several per operation)
if want("1b") || want("1") {
    log("1b. KVO subscription")
    let n = smoke ? 20_000 : 1_000_000
    _ = KVOBench.observeAndInvalidate(10_000)
    let pair = Stats((0..<reps).map { _ in KVOBench.observeAndInvalidate(n) })
    rows.append(
        Row(
            item: "1b. KVO subscription",
            compared: "observe(\\.value, [.new]) + invalidate(), cycling over 1000 objects: ns per pair",
            a: pair, b: nil, unit: "ns", ratio: .nan, ratioText: "—", budget: "—", met: nil))
    let live = smoke ? 10_000 : 100_000
    let bytes = Stats((0..<(smoke ? 1 : 3)).map { _ in KVOBench.bytesPerLiveSubscription(count: live) })
    rows.append(
        Row(
            item: "1b. KVO subscription memory",
            compared: "\(live) objects, one live subscription each: malloc bytes (mallinfo2) / subscription",
            a: bytes, b: nil, unit: "B", ratio: bytes.median / 120,
            ratioText: String(format: "%.2f of budget", bytes.median / 120), budget: "≤ ~120 B",
            met: bytes.median <= 120))
}

// 2. Monitoring overhead
if want("2") {
    let n = size.queueOperations
    log("2. monitoring overhead, \(n) operations")
    let r = smoke ? 2 : 7
    var plain: [Double] = [], observable: [Double] = [], monitored: [Double] = [], caughtUp: [Double] = []
    _ = QueueBench.run(.monitored, count: min(n, 5_000))
    for _ in 0..<r {
        plain.append(QueueBench.run(.plain, count: n))
        observable.append(QueueBench.run(.observable, count: n))
        let watched = QueueBench.runWithCatchUp(.monitored, count: n)
        monitored.append(watched.drained)
        caughtUp.append(watched.caughtUp)
    }
    let sp = Stats(plain), so = Stats(observable), sm = Stats(monitored), sc = Stats(caughtUp)
    let ratio = sp.median / sm.median
    rows.append(
        Row(
            item: "2. Monitoring overhead",
            compared: "\(n) async ops: ObservableOperationQueue + QueueMonitor vs plain OperationQueue (throughput)",
            a: sm, b: sp, unit: "s", ratio: ratio, ratioText: String(format: "%.2f×", ratio),
            budget: "≥ 0.9× (goal 0.95×)", met: ratio >= 0.9))
    let ratioC = sp.median / sc.median
    rows.append(
        Row(
            item: "2. (monitor caught up)",
            compared:
                "same, until the monitor's snapshot holds every finish (it applies changes in batches, behind the queue)",
            a: sc, b: sp, unit: "s", ratio: ratioC, ratioText: String(format: "%.2f×", ratioC),
            budget: "—", met: nil))
    let ratioQ = sp.median / so.median
    rows.append(
        Row(
            item: "2. (queue alone)",
            compared: "ObservableOperationQueue, no monitor vs plain OperationQueue (throughput)",
            a: so, b: sp, unit: "s", ratio: ratioQ, ratioText: String(format: "%.2f×", ratioQ),
            budget: "—", met: nil))
}

// 2b. Metrics overhead
if want("2b") {
    let n = size.queueOperations
    log("2b. metrics overhead, \(n) operations")
    let r = smoke ? 2 : 9
    _ = MetricsBench.run(metrics: true, count: min(n, 5_000))
    var on: [Double] = [], off: [Double] = [], onExported: [Double] = [], offCaughtUp: [Double] = []
    for _ in 0..<r {
        let without = MetricsBench.run(metrics: false, count: n)
        off.append(without.drained)
        offCaughtUp.append(without.exported)
        let measured = MetricsBench.run(metrics: true, count: n)
        on.append(measured.drained)
        onExported.append(measured.exported)
    }
    let sOn = Stats(on), sOff = Stats(off), sExported = Stats(onExported), sCaughtUp = Stats(offCaughtUp)
    let ratio = sOff.median / sOn.median
    rows.append(
        Row(
            item: "2b. Metrics overhead",
            compared:
                "\(n) async ops through a monitored queue: QueueMetrics → Prometheus registry on vs off (throughput)",
            a: sOn, b: sOff, unit: "s", ratio: ratio, ratioText: String(format: "%.2f×", ratio),
            budget: "≥ 0.95×", met: ratio >= 0.95))
    let ratioE = sCaughtUp.median / sExported.median
    rows.append(
        Row(
            item: "2b. (every finish exported)",
            compared: "same, until the monitor caught up and a last update() put every finish into the histograms",
            a: sExported, b: sCaughtUp, unit: "s", ratio: ratioE, ratioText: String(format: "%.2f×", ratioE),
            budget: "—", met: nil))
}

// 2c. Recording seek
if want("2c") {
    let n = smoke ? 50_000 : 1_000_000
    log("2c. recording seek, \(n) events")
    let directory = FileManager.default.temporaryDirectory
    let path = directory.appendingPathComponent("opsdash-bench-\(getpid()).jsonl").path
    let small = directory.appendingPathComponent("opsdash-bench-small-\(getpid()).jsonl").path
    defer {
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: small)
    }
    do {
        try RecordingBench.write(events: n, to: path)
        try RecordingBench.write(events: n / 10, to: small)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        let openStart = ContinuousClock.now
        let reader = try RecordingReader(path: path)
        let open = (ContinuousClock.now - openStart).seconds
        var random = SeededGenerator(seed: 11)
        let points = (0..<(smoke ? 5 : 40)).map { _ in Double.random(in: 0...1, using: &random) } + [0, 1]
        let seeks = Stats(try points.map { try RecordingBench.seek(reader, at: $0) })
        let mb = Double(size) / 1_048_576
        rows.append(
            Row(
                item: "2c. Recording seek",
                compared:
                    "\(n) events (\(String(format: "%.0f", mb)) MiB, \(reader.marks.count) keyframes): picture at a random point (keyframe + deltas + snapshot)",
                a: seeks, b: nil, unit: "s", ratio: seeks.percentile(1.0) / 0.1,
                ratioText: String(format: "max %.0f ms", seeks.percentile(1.0) * 1000), budget: "< 100 ms",
                met: seeks.percentile(1.0) < 0.1))
        rows.append(
            Row(
                item: "2c. (open + index)", compared: "reading and checking every line once, keyframe offsets indexed",
                a: Stats([open]), b: nil, unit: "s", ratio: .nan, ratioText: "—", budget: "—", met: nil))
        // Memory: seeking in a recording ten times longer costs no more.
        let before = MemoryBench.allocatedBytes()
        let bigCursor = try reader.cursor(at: reader.duration * 0.9)
        let bigBytes = MemoryBench.allocatedBytes() - before
        keepAlive(bigCursor)
        let smallReader = try RecordingReader(path: small)
        let before2 = MemoryBench.allocatedBytes()
        let smallCursor = try smallReader.cursor(at: smallReader.duration * 0.9)
        let smallBytes = MemoryBench.allocatedBytes() - before2
        keepAlive(smallCursor)
        let ratioM = Double(bigBytes) / Double(max(1, smallBytes))
        rows.append(
            Row(
                item: "2c. Replay memory",
                compared: "cursor at 90% of \(n) events vs of \(n / 10) events: malloc bytes held",
                a: Stats([Double(bigBytes) / 1_048_576]), b: Stats([Double(smallBytes) / 1_048_576]), unit: "MiB",
                ratio: ratioM,
                ratioText: String(format: "%.2f×", ratioM), budget: "independent of length (≈ 1×)", met: ratioM < 1.5))
    } catch {
        log("2c failed: \(error)")
    }
}

/// `--profile-queue=<plain|observable|monitored>` runs only that side of item 2, ten times, for a
/// profiler: `Ratios --only=none --profile-queue=observable` under `perf record -g`.
if let kind = arguments.first(where: { $0.hasPrefix("--profile-queue=") })
    .flatMap({ QueueKind.profileName(String($0.dropFirst("--profile-queue=".count))) })
{
    for _ in 0..<10 { print(String(format: "%.3f s", QueueBench.run(kind, count: size.queueOperations))) }
    exit(0)
}

// 3. Frame cost
if want("3") {
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
}

// 3b. Busy frame at a realistic change rate
if want("3b") || want("3") {
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
}

// 4. Memory
if want("4") {
    let n = size.memoryOperations
    log("4. memory, \(n) operations")
    let monitor = Stats((0..<(smoke ? 1 : 3)).map { _ in MemoryBench.monitorBytesPerOperation(count: n) })
    rows.append(
        Row(
            item: "4. Memory per tracked op",
            compared: "QueueMonitor tracking \(n) queued ops: malloc bytes (mallinfo2) / op",
            a: monitor, b: nil, unit: "B", ratio: monitor.median / 512,
            ratioText: String(format: "%.2f of budget", monitor.median / 512), budget: "≤ 512 B",
            met: monitor.median <= 512))
    let store = Stats((0..<(smoke ? 1 : 3)).map { _ in MemoryBench.storeBytesPerOperation(count: n) })
    rows.append(
        Row(
            item: "4. (store alone)", compared: "MonitorStore entry: malloc bytes / op",
            a: store, b: nil, unit: "B", ratio: store.median / 512,
            ratioText: String(format: "%.2f of budget", store.median / 512), budget: "—", met: nil))
    let runLength = size.boundedRunOperations
    let cap = 16.0 * 1_048_576
    let bounded = MemoryBench.boundedRunPeakBytes(count: runLength)
    let peak = Stats([Double(bounded.peak) / 1_048_576])
    rows.append(
        Row(
            item: "4. Bounded history",
            compared: "\(runLength) ops added→finished through a default-limits store: peak malloc MiB",
            a: peak, b: nil, unit: "MiB", ratio: Double(bounded.peak) / cap,
            ratioText: String(format: "%.2f of cap", Double(bounded.peak) / cap), budget: "< 16 MiB cap",
            met: Double(bounded.peak) < cap))
}

// 5. Dependency-heavy queues
if want("5") {
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
}

// 7. Headless throughput
if want("7") {
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
}

let elapsed = ContinuousClock.now - started

// Output
func cell(_ s: Stats?, _ unit: String, p90 higher: Bool) -> String {
    guard let s else { return "—" }
    if unit == "ev/s" { return higher ? fmt(s.percentile(0.1), unit) + " (p10)" : fmt(s.median, unit) }
    return higher ? fmt(s.p90, unit) : fmt(s.median, unit)
}

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
