// The dashboard loop in situ (issue #28 goal 1): the real `runDashboard` loop, reducer,
// renderer and diff over a fake 120×40 screen at 20 fps, reading a real `QueueMonitor` that
// watches a real queue finishing operations at a fixed rate. Reports the loop thread's CPU
// (CLOCK_THREAD_CPUTIME_ID, % of a core) and its CPU per frame, also for the frames that
// changed 1–3 screen rows (and those that changed none), and the CPU of the monitor's background applier thread (which
// applies the app's changes between frames). One row per run for docs/BENCHMARKS.md.
//
//   swift build -c release --product DashboardLoopBench
//   .build/release/DashboardLoopBench [--rate=50] [--seconds=20] [--sort=id|state] [--fps=20]
//
// Lives in the main package (not the nested Benchmarks package) because the loop is `package`
// API of the OpsDashLoop module; it is an executable nothing depends on, so users of the
// library never build it.
import Foundation
import OpsDashLoop
import OpsDashUI
import OpsKit
import OpsMonitor

/// A terminal that shows nothing: input waits like a real poll, draws flag the rows they touch.
final class FakeScreen: TerminalScreen {
    let size: TerminalSize
    let glyphs = GlyphSet.unicode
    /// Whether each screen row was touched since the last `takeChangedRows()`, and draw calls.
    @exclusivity(unchecked) private var touched: [Bool]
    @exclusivity(unchecked) private(set) var draws = 0

    init(width: Int, height: Int) {
        size = TerminalSize(width: width, height: height)
        touched = Array(repeating: false, count: height)
    }

    func draw(_ runs: [CellRun]) {
        guard !runs.isEmpty else { return }
        draws += 1
        for run in runs where touched.indices.contains(run.y) { touched[run.y] = true }
    }

    func readInput(timeoutMilliseconds: Int) -> TerminalInput? {
        if timeoutMilliseconds > 0 { poll(nil, 0, Int32(timeoutMilliseconds)) }
        return nil
    }

    func close() {}

    func takeChangedRows() -> Int {
        defer { for row in touched.indices { touched[row] = false } }
        return touched.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
}

func threadCPU() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

/// CPU seconds of every thread of the process (the app's workers, the feeder, the applier and
/// the loop), so that work moved off the loop thread still shows.
func processCPU() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

func cpuSeconds(_ clock: clockid_t) -> Double {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// CPU time of the threads named `name` (their `comm`, at most 15 bytes), from
/// /proc/self/task/*/schedstat (nanoseconds on a CPU).
func namedThreadsCPU(_ name: String) -> Double {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    var total = 0.0
    for task in tasks {
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
        guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == String(name.prefix(15)) else { continue }
        let stat = (try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        total += (stat.split(separator: " ").first.flatMap { Double($0) } ?? 0) / 1e9
    }
    return total
}

func option(_ name: String, _ fallback: String) -> String {
    let prefix = "--\(name)="
    return CommandLine.arguments.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? fallback
}

let rate = Int(option("rate", "50")) ?? 50
let seconds = Double(option("seconds", "20")) ?? 20
let fps = Int(option("fps", "20")) ?? 20
let sort: OpsDashUI.SortOrder = option("sort", "id") == "state" ? .state : .id
let warmup = 2.0
let slots = 10

// The app: `slots` operations run at a time, each a simulated 2 MB download of 10 chunks
// taking slots / rate seconds, one added every 1 / rate s, so `rate` finish each second.
let queue = ObservableOperationQueue(name: "in-situ")
queue.maxConcurrentOperationCount = slots
let monitor = QueueMonitor(queue: queue)
let clock = LiveClock()
let feeding = OpsMutex(true)
let feeder = Thread {
    guard rate > 0 else { return }
    let interval = 1.0 / Double(rate)
    let duration = Double(slots) / Double(rate)
    let bytes: Int64 = 2_000_000
    let plan = TransferPlan(totalBytes: bytes, bandwidth: Int64(Double(bytes) / duration), chunkBytes: bytes / 10)
    var next = Date()
    var index = 0
    while feeding.withLock({ $0 }) {
        index += 1
        queue.addOperation(
            SimulatedWorkOperation(
                kind: .download, name: "chunk-\(index).bin", plan: plan, clock: clock,
                random: SeededGenerator(seed: UInt64(index))))
        next += interval
        Thread.sleep(until: next)
    }
}
feeder.start()

// The loop, with the refresh `opsdash` gives it (a new picture when the monitor's version
// moved, and once a second for the clocks; the picture shown handed back to the monitor).
let screen = FakeScreen(width: 120, height: 40)
let inbox = LoopInbox()
var state = DashboardState(width: 120, height: 40, glyphs: .unicode)
state.sort = sort
var version: UInt64?
var lastSecond = -1
let started = Date()
var lastCPU: Double?
var windowStart: (cpu: Double, frames: Int, applier: Double, process: Double)?
var frames = 0
var costs: [(cpu: Double, rows: Int)] = []
var windowEnd: (cpu: Double, frames: Int, wall: Double, applier: Double, process: Double)?

_ = runDashboard(
    screen: screen, fps: fps, initial: state, inbox: inbox,
    refresh: { picture in
        // One call per loop iteration: the CPU since the last call is that frame's cost.
        let cpu = threadCPU()
        let elapsed = Date().timeIntervalSince(started)
        frames += 1
        if windowStart == nil, elapsed >= warmup {
            windowStart = (cpu, frames, namedThreadsCPU("opsmonitor.apply"), processCPU())
            _ = screen.takeChangedRows()
        } else if windowStart != nil, windowEnd == nil {
            if let lastCPU { costs.append((cpu - lastCPU, screen.takeChangedRows())) }
            if elapsed >= warmup + seconds {
                windowEnd = (cpu, frames, elapsed - warmup, namedThreadsCPU("opsmonitor.apply"), processCPU())
                inbox.stop(signal: 0)
            }
        }
        lastCPU = cpu
        let second = Int(monitor.now.seconds)
        guard monitor.refresh(&picture, ifChangedSince: second == lastSecond ? version : nil) else { return false }
        lastSecond = second
        version = picture.version
        return true
    },
    perform: { _ in })
feeding.withLock { $0 = false }

guard let windowStart, let windowEnd else {
    FileHandle.standardError.write(Data("DashboardLoopBench: the loop ended before the window did\n".utf8))
    exit(1)
}
let cpu = windowEnd.cpu - windowStart.cpu
let count = max(1, windowEnd.frames - windowStart.frames)
// Frames that drew 1–3 rows (the goal's "≤ 3 rows changed"), apart from those that drew none
// (no new picture: a wake-up and a version check).
let few = costs.filter { (1...3).contains($0.rows) }
let fewMean = few.isEmpty ? 0 : few.map(\.cpu).reduce(0, +) / Double(few.count)
let idle = costs.filter { $0.rows == 0 }
let idleMean = idle.isEmpty ? 0 : idle.map(\.cpu).reduce(0, +) / Double(idle.count)
func percentile90(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
}
let p90 = percentile90(costs.map(\.cpu))
let fewP90 = percentile90(few.map(\.cpu))
let changedMean = costs.isEmpty ? 0 : Double(costs.map(\.rows).reduce(0, +)) / Double(costs.count)
func percent(_ value: Double) -> String { String(format: "%.2f%%", value * 100) }
func micro(_ value: Double) -> String { String(format: "%.1f µs", value * 1e6) }
print(
    "| dashboard loop in situ, \(rate) finishes/s, 120×40, \(fps) fps, sort \(sort == .state ? "state" : "id"), "
        + "\(Int(seconds)) s | \(percent(cpu / windowEnd.wall)) of a core | \(micro(cpu / Double(count))) per frame "
        + "(p90 \(micro(p90))) | \(micro(fewMean)) per frame with 1–3 rows changed (p90 \(micro(fewP90)), "
        + "\(few.count) of \(costs.count) frames; \(micro(idleMean)) with none, \(idle.count)) | \(String(format: "%.1f", changedMean)) rows changed per frame | applier thread "
        + "\(percent((windowEnd.applier - windowStart.applier) / windowEnd.wall)) of a core | process "
        + "\(percent((windowEnd.process - windowStart.process) / windowEnd.wall)) of a core |")
