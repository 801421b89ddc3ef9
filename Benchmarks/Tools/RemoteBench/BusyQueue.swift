import BenchWorkloads
import Foundation
import OpsKit
import OpsKitPublisher
import OpsMonitor

/// What one steady busy-queue run cost the app.
struct BusyQueueResult {
    /// App CPU seconds per wall second while operations arrived at the set rate (cores).
    var cores: Double
    /// CPU seconds per wall second of the publisher's event-loop thread (cores).
    var publisherCores: Double
    /// Operations added in the measured window.
    var added: Int
    /// Changes (events) the publisher numbered in the window; 0 without a publisher.
    var changes: Int
    /// Seconds the window lasted.
    var seconds: Double
    /// Fresh snapshots the publisher sent because a viewer fell behind.
    var lagResyncs: Int
}

/// A queue kept busy at a steady rate, as a real app's queue is: `rate` operations per second
/// arrive in 1 ms ticks onto a queue running 8 at a time, for `seconds`, with a publisher and
/// `viewers` viewer processes attached (nil: no monitor at all). The viewers read every byte but
/// do not decode (`runRawViewer`), so that on a small machine 64 of them do not take the cores
/// the app is measured on. The app's CPU is measured over
/// the window only (viewers connected and streaming before it opens).
/// With `monitorOnly` (and `viewers` nil), a `QueueMonitor` watches the queue and nothing reads it
/// but its own background applier.
func busyQueue(
    viewers: Int?, rate: Int, seconds: Double, name: String, sharedMemory: Bool = true, monitorOnly: Bool = false
) -> BusyQueueResult {
    let queue = ObservableOperationQueue()
    queue.maxConcurrentOperationCount = 8
    var monitor: QueueMonitor?
    var published: QueuePublisher?
    var processes: [Process] = []
    if viewers == nil, monitorOnly { monitor = QueueMonitor(queue: queue, clock: LiveClock()) }
    if let viewers {
        let made = QueueMonitor(queue: queue, clock: LiveClock())
        monitor = made
        let madePublisher = publisher(for: made, name: name)
        published = madePublisher
        processes = spawnViewers(
            viewers, socket: madePublisher.socketPath, publisher: madePublisher, raw: true, sharedMemory: sharedMemory)
    }
    // A short warm-up so the viewers have their keyframe and the stream is steady.
    feed(queue, rate: rate, for: 0.3)
    let resyncsBefore = published?.tally()?.resyncs["lagged"] ?? 0
    let eventsBefore = published?.statistics()?.events ?? 0
    let cpuBefore = cpuSeconds()
    let publisherBefore = threadCPUSeconds(named: "NIO-ELT")
    let start = ContinuousClock.now
    let added = feed(queue, rate: rate, for: seconds)
    let wall = (ContinuousClock.now - start).seconds
    let cpu = cpuSeconds() - cpuBefore
    let publisherCPU = threadCPUSeconds(named: "NIO-ELT") - publisherBefore
    let lagResyncs = (published?.tally()?.resyncs["lagged"] ?? 0) - resyncsBefore
    let changes = Int((published?.statistics()?.events ?? 0) &- eventsBefore)
    queue.waitUntilAllOperationsAreFinished()
    published?.stop()
    reap(processes)
    monitor?.stop()
    return BusyQueueResult(
        cores: cpu / max(1e-9, wall), publisherCores: publisherCPU / max(1e-9, wall), added: added, changes: changes,
        seconds: wall, lagResyncs: lagResyncs)
}

/// Adds `rate` empty operations per second to `queue` in 1 ms ticks for `seconds` (catching up
/// on ticks a late wake-up missed); returns how many were added.
@discardableResult
private func feed(_ queue: OperationQueue, rate: Int, for seconds: Double) -> Int {
    let start = ContinuousClock.now
    let ticks = Int(seconds * 1000)
    var added = 0
    for tick in 1...max(1, ticks) {
        let due = start + .milliseconds(tick)
        let now = ContinuousClock.now
        if now < due { Thread.sleep(forTimeInterval: (due - now).seconds) }
        let target = rate * tick / 1000
        if target > added {
            queue.addOperations((added..<target).map { _ in ClosureOperation {} }, waitUntilFinished: false)
            added = target
        }
    }
    return added
}

/// Runs the busy-queue comparison (no monitor, then a publisher with 0, 1, 8 and `many`
/// viewers reading the shared-memory stream, and `many` reading their sockets only) `rounds`
/// times and prints its table: the app's cores, the publisher thread's share, and growth against
/// 0 and 1 viewer (per-round differences, then the median).
func printBusyQueueTable(rate: Int, seconds: Double, rounds: Int, many: Int) {
    let setups: [(viewers: Int?, shared: Bool)] =
        [(nil, true), (0, true), (1, true)] + Set([8, many]).sorted().map { ($0, true) } + [(many, false)]
    var results: [[BusyQueueResult]] = Array(repeating: [], count: setups.count)
    for round in 0..<rounds {
        for (index, setup) in setups.enumerated() {
            results[index].append(
                busyQueue(
                    viewers: setup.viewers, rate: rate, seconds: seconds,
                    name: "busy\(round)-\(setup.viewers ?? -1)\(setup.shared ? "" : "s")", sharedMemory: setup.shared))
        }
    }
    func growth(_ index: Int, over base: Int, _ value: (BusyQueueResult) -> Double) -> String {
        String(format: "%+.3f", median(zip(results[base], results[index]).map { value($1) - value($0) }))
    }
    print(
        "| Busy queue: \(rate) operations/s, 8 at a time, \(String(format: "%.0f", seconds)) s windows, median of \(rounds) | App cores | Publisher thread cores | App growth vs 0 viewers | Publisher growth vs 0 / vs 1 viewer | Lag resyncs | Budget |"
    )
    print("|---|---|---|---|---|---|---|")
    for (index, setup) in setups.enumerated() {
        let label =
            setup.viewers.map { "publisher, \($0) viewers\(setup.shared ? "" : " (socket only)")" } ?? "no monitor"
        let app = String(format: "%.3f", median(results[index].map(\.cores)))
        let publisher =
            setup.viewers == nil ? "" : String(format: "%.3f", median(results[index].map(\.publisherCores)))
        let appGrowth = index >= 2 ? growth(index, over: 1, \.cores) : ""
        let publisherGrowth =
            index >= 3
            ? "\(growth(index, over: 1, \.publisherCores)) / \(growth(index, over: 2, \.publisherCores))"
            : index == 2 ? growth(index, over: 1, \.publisherCores) : ""
        let resyncs = results[index].map(\.lagResyncs).reduce(0, +)
        let budget = setup.viewers == many && setup.shared ? "< 0.10 core" : ""
        print("| \(label) | \(app) | \(publisher) | \(appGrowth) | \(publisherGrowth) | \(resyncs) | \(budget) |")
    }
    print("")
}

/// The app's CPU growth with `many` viewers against 0, at each of `rates` (operations/s), with
/// viewers reading the shared-memory stream and reading their sockets only: up to which rate
/// the budget holds.
func printBusyQueueSweep(rates: [Int], seconds: Double, rounds: Int, many: Int) {
    print(
        "| Operations/s (changes/s) | App cores, 0 viewers | App cores, \(many) viewers | Growth | Budget met (< 0.10 core) | Growth, \(many) viewers on sockets only |"
    )
    print("|---|---|---|---|---|---|")
    for rate in rates {
        var zero: [BusyQueueResult] = []
        var loaded: [BusyQueueResult] = []
        var socketOnly: [BusyQueueResult] = []
        for round in 0..<rounds {
            zero.append(busyQueue(viewers: 0, rate: rate, seconds: seconds, name: "sweep\(rate)-\(round)-0"))
            loaded.append(busyQueue(viewers: many, rate: rate, seconds: seconds, name: "sweep\(rate)-\(round)-n"))
            socketOnly.append(
                busyQueue(
                    viewers: many, rate: rate, seconds: seconds, name: "sweep\(rate)-\(round)-s", sharedMemory: false))
        }
        let growth = median(zip(zero, loaded).map { $1.cores - $0.cores })
        let socketGrowth = median(zip(zero, socketOnly).map { $1.cores - $0.cores })
        let changes = median(loaded.map { Double($0.changes) / $0.seconds })
        print(
            "| \(rate) (\(Int(changes.rounded()))) | \(String(format: "%.3f", median(zero.map(\.cores)))) | \(String(format: "%.3f", median(loaded.map(\.cores)))) | \(String(format: "%+.3f", growth)) | \(growth < 0.10 ? "yes" : "no") | \(String(format: "%+.3f", socketGrowth)) |"
        )
    }
    print("")
}

/// What monitoring costs the app by CPU at a steady rate (issue #28 goal 2): no monitor, a
/// `QueueMonitor` alone, and a publisher with 0 viewers, in an order rotated per round; the
/// cost is each round's cores with monitoring ÷ cores without, minus 1, then the median.
func printBusyCostTable(rate: Int, seconds: Double, rounds: Int) {
    let setups: [(label: String, viewers: Int?, monitorOnly: Bool)] = [
        ("no monitor", nil, false), ("QueueMonitor alone", nil, true), ("publisher, 0 viewers", 0, false),
    ]
    var results: [[BusyQueueResult]] = Array(repeating: [], count: setups.count)
    for round in 0..<rounds {
        for step in 0..<setups.count {
            let index = (step + round) % setups.count
            let setup = setups[index]
            results[index].append(
                busyQueue(
                    viewers: setup.viewers, rate: rate, seconds: seconds, name: "cost\(round)-\(index)",
                    monitorOnly: setup.monitorOnly))
        }
    }
    print(
        "| Monitoring cost by CPU: \(rate) operations/s, 8 at a time, \(String(format: "%.0f", seconds)) s windows, median of \(rounds) | App cores | µs of CPU per operation | CPU vs no monitor | Budget |"
    )
    print("|---|---|---|---|---|")
    for (index, setup) in setups.enumerated() {
        let cores = median(results[index].map(\.cores))
        let perOperation = median(results[index].map { $0.cores * $0.seconds / Double(max(1, $0.added)) * 1e6 })
        let ratios = zip(results[0], results[index]).map { ($1.cores / $0.cores - 1) * 100 }
        let growth = index == 0 ? "" : String(format: "%+.0f%%", median(ratios))
        print(
            "| \(setup.label) | \(String(format: "%.3f", cores)) | \(String(format: "%.2f", perOperation)) | \(growth) | \(index == 0 ? "" : "≤ +5%") |"
        )
    }
    print("")
}
