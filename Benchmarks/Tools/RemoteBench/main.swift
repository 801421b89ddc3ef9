// Remote monitoring budgets (issue: publish + attach), side by side in one run:
//
//   .build/release/RemoteBench            # standard: 100,000 operations, 5 rounds per side
//   .build/release/RemoteBench --smoke    # CI: tiny sizes, one round, no verdicts
//   .build/release/RemoteBench --profile=monitored   # one setup ten times, for `perf record -g`
//                                                    # (unmonitored, monitored, publishedN)
//   .build/release/RemoteBench --busy[=RATE]         # only the busy-queue tables (default 10,000 ops/s)
//   .build/release/RemoteBench --busy-cost [--busy=RATE] [--rounds=N]   # only monitoring's CPU cost there
//   .build/release/RemoteBench --throughput [--rounds=N]   # only the throughput table
//   .build/release/RemoteBench --burst [--rounds=N]  # only the 64-viewer burst table
//   .build/release/RemoteBench --stalled             # only the stalled-viewer table
//   .build/release/RemoteBench --latency [--ssh=ssh://127.0.0.1:PORT --ssh-opsdash=PATH]
//                                  # only the change → viewer latency table; with --ssh, also
//                                  # through `ssh … opsdash relay` (OPSDASH_SSH_COMMAND for keys)
//   … --stream-bursts                                # with every change streamed in a burst
//   … --detail                                       # each burst round's growth by phase and thread
//
// Viewers are separate processes (this executable with `--viewer SOCKET`, or `--raw-viewer
// SOCKET` for a reader that does not decode), as real viewers are, so their CPU is not the app's.
import BenchWorkloads
import Foundation
import OpsKit
import OpsKitPublisher
import OpsKitViewer
import OpsMonitor
import Synchronization

let arguments = CommandLine.arguments

/// The number after `prefix` (e.g. `--rounds=`) in the arguments, if one is given.
func integerArgument(_ prefix: String) -> Int? {
    arguments.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
}

// MARK: Viewer mode: read a published queue until the publisher says bye.

if let index = arguments.firstIndex(of: "--viewer"), index + 1 < arguments.count {
    // Says "attached" on stdout once it has its first picture (`spawnViewers` waits for it).
    let attached = Atomic<Bool>(false)
    let viewer = RemoteViewer(
        target: .unix(arguments[index + 1]), role: .observer, reconnect: false,
        sharedMemory: !arguments.contains("--socket-only"),
        onOutput: { outputs in
            guard outputs.contains(where: { if case .keyframe = $0 { true } else { false } }),
                !attached.exchange(true, ordering: .relaxed)
            else { return }
            FileHandle.standardOutput.write(Data("attached\n".utf8))
        })
    if let error = viewer.start() {
        FileHandle.standardError.write(Data("viewer: \(error)\n".utf8))
        exit(1)
    }
    viewer.waitUntilFinished()
    exit(0)
}

if let index = arguments.firstIndex(of: "--raw-viewer"), index + 1 < arguments.count {
    exit(runRawViewer(arguments[index + 1], sharedMemory: !arguments.contains("--socket-only")))
}

let smoke = arguments.contains("--smoke")
let operations = smoke ? 5_000 : 100_000
let rounds = smoke ? 1 : integerArgument("--rounds=") ?? 5
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-bench-\(getpid())/opsdash").path
try? FileManager.default.createDirectory(
    atPath: (directory as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
// Removed at every exit (the modes below end with `exit`, which skips a top-level `defer`).
atexit {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-bench-\(getpid())").path
    try? FileManager.default.removeItem(atPath: root)
}

func publisher(for monitor: QueueMonitor, name: String, configure: (inout QueuePublisher.Options) -> Void = { _ in })
    -> QueuePublisher
{
    var options = QueuePublisher.Options()
    options.app = "bench"
    options.directory = directory
    // `--stream-bursts`: every change is streamed whatever the rate (bursts off), for comparison.
    if arguments.contains("--stream-bursts") { options.configuration.burstRate = 0 }
    configure(&options)
    let publisher = QueuePublisher(monitor: monitor, name: name, options: options)
    do { try publisher.start() } catch {
        print("cannot publish: \(error)")
        exit(1)
    }
    return publisher
}

/// Seconds to push `operations` empty operations through the queue and drain it, the CPU
/// seconds the process used meanwhile, and the CPU seconds until the monitor and the publisher
/// also caught up (the monitor applied every change, the publisher said bye: `stop()`, whose
/// last pump encodes what the drain left).
/// One measured run: see `run(_:round:)`.
struct RunResult {
    var seconds: Double
    var cpu: Double
    var cpuUntilPublished: Double
    /// CPU seconds applying what the monitor had left after the drain, and in `stop()`.
    var applyCPU: Double
    var stopCPU: Double
    /// CPU seconds by thread name from the drain's start until just before `stop()`.
    var threads: [String: Double]
    /// Resyncs for bursts the publisher sent each viewer until just before `stop()`.
    var burstResyncs: Int
}

func run(_ setup: Setup, round: Int) -> RunResult {
    let ops: [Operation] = (0..<operations).map { _ in ClosureOperation {} }
    let queue = ObservableOperationQueue()
    var monitor: QueueMonitor?
    var published: QueuePublisher?
    var viewers: [Process] = []
    switch setup {
    case .unmonitored: break
    case .monitored:
        monitor = QueueMonitor(queue: queue, clock: LiveClock(), recordEvents: false)
    case .published(let count):
        let made = QueueMonitor(queue: queue, clock: LiveClock())
        monitor = made
        let made2 = publisher(for: made, name: "q\(round)-\(count)")
        published = made2
        viewers = spawnViewers(count, socket: made2.socketPath, publisher: made2)
    }
    let threadsBefore = threadCPU()
    let cpuBefore = cpuSeconds()
    let seconds = time {
        queue.addOperations(ops, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
    }
    let cpu = cpuSeconds() - cpuBefore
    // The store work every monitored setup does, whether a viewer's drain made it happen during
    // the drain or the monitor's background applier does it afterwards: counted in all of them.
    monitor?.applyPendingChanges()
    let cpuApplied = cpuSeconds() - cpuBefore
    let threads = threadCPUByName(from: threadsBefore, to: threadCPU())
    let burstResyncs = (published?.tally()?.resyncs["burst"] ?? 0) / max(1, viewers.count)
    published?.stop()
    let cpuUntilPublished = cpuSeconds() - cpuBefore
    reap(viewers)
    monitor?.stop()
    return RunResult(
        seconds: seconds, cpu: cpu, cpuUntilPublished: cpuUntilPublished, applyCPU: cpuApplied - cpu,
        stopCPU: cpuUntilPublished - cpuApplied, threads: threads, burstResyncs: burstResyncs)
}

// MARK: Profiling: one setup, ten times (`--profile=monitored [--rounds=N]` under `perf record -g`).

if let flag = arguments.first(where: { $0.hasPrefix("--profile=") }) {
    let name = flag.dropFirst("--profile=".count)
    if name.hasPrefix("busy") {
        // `--profile=busy` (no monitor) or `--profile=busyN` (publisher, N raw viewers): 10 s at
        // `--busy=RATE` (default 10,000 operations/s).
        let viewers = Int(name.dropFirst(4))
        let rate = integerArgument("--busy=") ?? 10_000
        let result = busyQueue(viewers: viewers, rate: rate, seconds: 10, name: "profile")
        print(
            String(
                format: "%@: %.3f app cores, %.3f publisher cores", String(name), result.cores, result.publisherCores))
        exit(0)
    }
    let setup: Setup
    switch name {
    case "unmonitored": setup = .unmonitored
    case "monitored": setup = .monitored
    default:
        guard name.hasPrefix("published"), let count = Int(name.dropFirst("published".count)) else {
            print("usage: --profile=unmonitored|monitored|publishedN")
            exit(2)
        }
        setup = .published(viewers: count)
    }
    let count = integerArgument("--rounds=") ?? 10
    for round in 0..<count {
        let result = run(setup, round: round)
        print(String(format: "%@: %.3f s, %.2f cores", "\(setup)", result.seconds, result.cpu / result.seconds))
    }
    exit(0)
}

// MARK: A busy queue: the app's cores at a steady rate (`--busy[=RATE]` runs only these tables).

let busyRate = integerArgument("--busy=") ?? 10_000
let busyRounds = smoke ? 1 : 3
let busySeconds = smoke ? 1.0 : 5.0
let busyViewers = smoke ? 8 : 64
func printBusyQueueTables() {
    printBusyQueueTable(rate: busyRate, seconds: busySeconds, rounds: busyRounds, many: busyViewers)
    let rates = smoke ? [1_000] : [1_000, 2_000, 5_000, 10_000, 20_000]
    printBusyQueueSweep(rates: rates, seconds: busySeconds, rounds: busyRounds, many: busyViewers)
}
let burstOnly = arguments.contains("--burst")
if arguments.contains("--latency") {
    printLatencyTable()
    exit(0)
}
if arguments.contains("--busy-cost") {
    printBusyCostTable(rate: busyRate, seconds: busySeconds, rounds: integerArgument("--rounds=") ?? (smoke ? 1 : 5))
    exit(0)
}
if arguments.contains(where: { $0.hasPrefix("--busy") }) {
    printBusyQueueTables()
    exit(0)
}

let stalledOnly = arguments.contains("--stalled")
if !burstOnly {
    if !stalledOnly {
        print(
            "## Remote monitoring (\(smoke ? "smoke" : "standard"): \(operations) operations, \(rounds) rounds per setup, alternating)"
        )
        print("")
        let setups: [Setup] = [.unmonitored, .monitored, .published(viewers: 0), .published(viewers: 8)]
        var times: [[Double]] = Array(repeating: [], count: setups.count)
        var cpus: [[Double]] = Array(repeating: [], count: setups.count)
        for round in 0..<rounds {
            for (index, setup) in setups.enumerated() {
                let result = run(setup, round: round)
                times[index].append(result.seconds)
                cpus[index].append(result.cpu)
            }
        }
        // Ratios are taken per round (each setup against the unmonitored run just before it), then the
        // median: on a shared machine the load drifts between rounds, less within one.
        func roundRatios(_ values: [[Double]], _ index: Int) -> Double {
            median(zip(values[0], values[index]).map { base, measured in base / max(1e-9, measured) })
        }
        print(
            "| Setup | Drain median | Throughput vs unmonitored | App CPU median | Throughput by CPU (unmonitored CPU / CPU) | Budget |"
        )
        print("|---|---|---|---|---|---|")
        for (index, setup) in setups.enumerated() {
            let budget: String
            switch setup {
            case .published(0): budget = "≥ 0.95×"
            case .published(8): budget = "≥ 0.90×"
            default: budget = ""
            }
            let drain = String(format: "%.3f s", median(times[index]))
            let cpu = String(format: "%.3f s", median(cpus[index]))
            print(
                "| \(setup) | \(drain) | \(String(format: "%.2f×", roundRatios(times, index))) | \(cpu) | \(String(format: "%.2f×", roundRatios(cpus, index))) | \(budget) |"
            )
        }
        print("")
        if arguments.contains("--throughput") { exit(0) }
    }

    // MARK: A stalled viewer: bounded memory.

    do {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        // Bursts off: every change is encoded into the ring, the most a stalled viewer can
        // make the publisher hold (a burst would encode nothing).
        let stalledPublisher = publisher(for: monitor, name: "stalled") { $0.configuration.burstRate = 0 }
        // Connect, say hello, never read.
        let descriptor = connectAndSayHello(stalledPublisher.socketPath)
        let before = MemoryBench.allocatedBytes()
        var peakRing = 0
        var peakHeap = 0
        for _ in 0..<(smoke ? 1 : 5) {
            queue.addOperations((0..<operations).map { _ in ClosureOperation {} }, waitUntilFinished: false)
            while queue.allOperationCount > 0 {
                Thread.sleep(forTimeInterval: 0.05)
                peakRing = max(peakRing, stalledPublisher.statistics()?.ringBytes ?? 0)
                peakHeap = max(peakHeap, MemoryBench.allocatedBytes() - before)
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
        peakRing = max(peakRing, stalledPublisher.statistics()?.ringBytes ?? 0)
        let limit = QueuePublisher.Options().configuration.ringBytes
        print("| A viewer that never reads, \(smoke ? 1 : 5) × \(operations) operations | Value | Bound |")
        print("|---|---|---|")
        print(
            "| Shared ring, peak | \(peakRing / 1024) KiB | \(limit / 1024) KiB (ring) + the 64 KiB batch holding its oldest line; per viewer 256 KiB of socket buffer |"
        )
        print("| Heap growth while it stalls, peak (monitor store included) | \(peakHeap / 1024) KiB | |")
        print("")
        close(descriptor)
        stalledPublisher.stop()
        monitor.stop()
    }
    if stalledOnly { exit(0) }

    // MARK: Change-to-viewer latency at 1,000 changes/s (Latency.swift).

    printLatencyTable()
}  // !burstOnly

// MARK: 64 viewers: the app's CPU.

do {
    // Growth = the CPU the viewers add to a drain (counted until the publisher caught up and said
    // bye: what it could not encode during the drain it encodes after), spread over the drain
    // time with 0 viewers: the share of a core the app needs on top to drain at the same rate.
    // Cores busy while draining would only read what the scheduler granted, which a loaded
    // machine caps.
    // The 0-vs-0 column is the control: a second run with no viewer, which differs from the
    // first only by chance (where the store's work lands, the scheduler): the noise floor.
    // Each round runs the reference and the measured setups in a rotated order, so that what
    // the position in a round costs (the heap and caches as earlier runs left them) falls on
    // every setup alike.
    let count = smoke ? 8 : 64
    var growth: [Int: [Double]] = [:]
    // The publisher's own share, which whole-process CPU (scattering ±0.5 core a round on this
    // VM) cannot resolve: its event-loop threads from the drain's start until `stop()`, and
    // `stop()` itself (the burst's last picture, the goodbyes).
    var publisherShare: [Int: [Double]] = [:]
    func publisherCPU(_ result: RunResult) -> Double {
        result.threads.filter { $0.key.hasPrefix("NIO-ELT") }.values.reduce(0, +) + result.stopCPU
    }
    for round in 0..<(smoke ? 1 : burstOnly ? rounds : 3) {
        // nil: the reference run (0 viewers); then the control (0) and the measured setups.
        let setups: [Int?] = [nil] + Set([0, 8, count]).sorted()
        let rotated = Array(setups[(round % setups.count)...] + setups[..<(round % setups.count)])
        var results: [Int?: RunResult] = [:]
        for (index, viewers) in rotated.enumerated() {
            results[viewers] = run(.published(viewers: viewers ?? 0), round: 200 + 10 * round + index)
        }
        guard let zero = results[nil] else { continue }
        for viewers in Set([0, 8, count]).sorted() {
            guard let many = results[viewers] else { continue }
            growth[viewers, default: []].append(
                (many.cpuUntilPublished - zero.cpuUntilPublished) / max(1e-9, zero.seconds))
            publisherShare[viewers, default: []].append(
                (publisherCPU(many) - publisherCPU(zero)) / max(1e-9, zero.seconds))
            if arguments.contains("--detail") {
                // Where the growth lands: phases, then threads (CPU ms, these viewers minus 0).
                var line = String(
                    format:
                        "%2d viewers, %d burst resyncs: total %+.0f ms; drain %+.0f, apply %+.0f, stop %+.0f; threads",
                    viewers, many.burstResyncs, (many.cpuUntilPublished - zero.cpuUntilPublished) * 1e3,
                    (many.cpu - zero.cpu) * 1e3,
                    (many.applyCPU - zero.applyCPU) * 1e3, (many.stopCPU - zero.stopCPU) * 1e3)
                for name in Set(many.threads.keys).union(zero.threads.keys).sorted() {
                    let delta = (many.threads[name] ?? 0) - (zero.threads[name] ?? 0)
                    if abs(delta) >= 0.002 { line += String(format: " %@ %+.0f", name, delta * 1e3) }
                }
                print(line)
            }
        }
    }
    print(
        "| App CPU growth vs 0 viewers, \(operations) operations | 0 viewers (control) | 8 viewers | \(count) viewers | Budget |"
    )
    print("|---|---|---|---|---|")
    // The median, and the middle half of the rounds (each round's growth is a difference of
    // two runs, so single rounds scatter widely).
    func spread(_ values: [Double]) -> String {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return "-" }
        let low = sorted[sorted.count / 4]
        let high = sorted[(sorted.count * 3) / 4]
        return String(format: "%.2f (%.2f to %.2f)", median(sorted), low, high)
    }
    print(
        "| extra CPU s (drain + monitor and publisher catching up) ÷ drain time with 0 viewers (cores): median (middle half) | \(spread(growth[0] ?? [])) | \(spread(growth[8] ?? [])) | \(spread(growth[count] ?? [])) | < 0.10 core at 64 |"
    )
    print(
        "| of which the publisher's: its event-loop threads until `stop()`, and `stop()` (cores, same) | \(spread(publisherShare[0] ?? [])) | \(spread(publisherShare[8] ?? [])) | \(spread(publisherShare[count] ?? [])) | |"
    )
}

print("")
if burstOnly { exit(0) }
printBusyQueueTables()
