// Items 2, 2b and 2c: monitoring and metrics overhead, recording seek.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor
import OpsWire

/// 2. Monitoring overhead.
func monitoringOverhead(_ run: RatioRun) -> [Row] {
    let (size, smoke) = (run.size, run.smoke)
    var rows: [Row] = []
    let n = size.queueOperations
    log("2. monitoring overhead, \(n) operations")
    let r = smoke ? 3 : 9
    var plain: [Double] = [], observable: [Double] = [], monitored: [Double] = [], caughtUp: [Double] = []
    var plainCPU: [Double] = [], monitoredCPU: [Double] = [], cpuGrowth: [Double] = []
    _ = QueueBench.run(.monitored, count: min(n, 5_000))
    // The order of the three setups turns every round: a fixed order would put what the drain
    // before leaves behind (memory it freed, its threads winding down) on the same setup every
    // time (batches of one binary read up to 7% apart by their place in a fixed order).
    let kinds: [QueueKind] = [.plain, .observable, .monitored]
    for round in 0..<r {
        var unwatchedCPU = 0.0, watchedCPU = 0.0
        for step in 0..<kinds.count {
            switch kinds[(round + step) % kinds.count] {
            case .plain:
                let unwatched = QueueBench.runMeasured(.plain, count: n)
                plain.append(unwatched.drained)
                plainCPU.append(unwatched.cpu)
                unwatchedCPU = unwatched.cpu
            case .observable:
                observable.append(QueueBench.run(.observable, count: n))
            case .monitored:
                let watched = QueueBench.runMeasured(.monitored, count: n)
                monitored.append(watched.drained)
                caughtUp.append(watched.caughtUp)
                monitoredCPU.append(watched.cpu)
                watchedCPU = watched.cpu
            }
        }
        cpuGrowth.append(watchedCPU / unwatchedCPU - 1)
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
    let growth = Stats(cpuGrowth).median
    rows.append(
        Row(
            item: "2. Monitoring overhead (CPU)",
            compared:
                "same drain, the process's CPU time (all threads, getrusage) until the monitor caught up vs the plain queue's; growth = median of the per-round ratios − 1",
            a: Stats(monitoredCPU), b: Stats(plainCPU), unit: "s", ratio: growth,
            ratioText: String(format: "%+.0f%% CPU", growth * 100), budget: "≤ +5% (issue #28)", met: growth <= 0.05))
    let ratioQ = sp.median / so.median
    rows.append(
        Row(
            item: "2. (queue alone)",
            compared: "ObservableOperationQueue, no monitor vs plain OperationQueue (throughput)",
            a: so, b: sp, unit: "s", ratio: ratioQ, ratioText: String(format: "%.2f×", ratioQ),
            budget: "—", met: nil))
    return rows
}

/// 2b. Metrics overhead.
func metricsOverhead(_ run: RatioRun) -> [Row] {
    let (size, smoke) = (run.size, run.smoke)
    var rows: [Row] = []
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
    return rows
}

/// 2c. Recording seek.
func recordingSeek(_ run: RatioRun) -> [Row] {
    let smoke = run.smoke
    var rows: [Row] = []
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
    return rows
}
