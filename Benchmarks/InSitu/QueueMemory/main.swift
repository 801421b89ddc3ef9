// Memory of watching a queue of many waiting operations (issue #28 goal 5): queues N simulated
// 2 MB downloads (22,500 by default) on a suspended `ObservableOperationQueue`, with or without
// a `QueueMonitor` watching it (and the dashboard's picture of it held), and prints the process's
// resident memory (VmRSS, and its peak VmHWM, from /proc/self/status) before and after, in one
// row. Peak memory is a whole process's, so each variant is its own process:
//
//   swift build -c release --product QueueMemoryBench
//   for m in none monitor; do .build/release/QueueMemoryBench --monitor=$m; done
//
// The monitor's part is the difference between the two rows; Foundation's `Operation` objects'
// (with OpsKit's KVO layer and the operations' own state) is the "none" row's growth.
// `--malloc-stats` also prints glibc's `malloc_stats()` (to stderr) after the adds and after the
// monitor applied them: bytes malloc holds from the system and hands out, per arena.
import Foundation
import OpsKit
import OpsMonitor

func option(_ name: String, _ fallback: String) -> String {
    let prefix = "--\(name)="
    return CommandLine.arguments.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? fallback
}

/// VmRSS and VmHWM in KiB.
func residentMemory() -> (rss: Int, peak: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
}

/// Prints glibc's `malloc_stats()` under `title` with `--malloc-stats` (looked up at run time:
/// Swift's Glibc module does not export it).
func printMallocStats(_ title: String) {
    guard CommandLine.arguments.contains("--malloc-stats"),
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats")
    else { return }
    FileHandle.standardError.write(Data("== \(title)\n".utf8))
    unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)()
}

let operations = Int(option("operations", "22500")) ?? 22_500
let watched = option("monitor", "monitor") == "monitor"
let queue = ObservableOperationQueue(name: "memory")
queue.isSuspended = true
queue.maxConcurrentOperationCount = 10
let before = residentMemory()
let monitor = watched ? QueueMonitor(queue: queue) : nil
let bytes: Int64 = 2_000_000
let plan = TransferPlan(totalBytes: bytes, bandwidth: bytes, chunkBytes: bytes / 10)
let clock = LiveClock()
for index in 0..<operations {
    queue.addOperation(
        SimulatedWorkOperation(
            kind: .download, name: "chunk-\(index).bin", plan: plan, clock: clock,
            random: SeededGenerator(seed: UInt64(index))))
}
printMallocStats("after the adds")
// What the dashboard holds: the latest picture of every operation.
monitor?.applyPendingChanges()
let picture = monitor?.snapshot()
let after = residentMemory()
printMallocStats("after applying")
let perOperation = Double(after.rss - before.rss) * 1024 / Double(max(1, operations))
print(
    String(
        format: "| %@ | %d operations queued | RSS %.1f → %.1f MiB (%.0f B/op) | peak %.1f MiB | shown %d |",
        watched ? "monitor" : "no monitor", operations, Double(before.rss) / 1024, Double(after.rss) / 1024,
        perOperation, Double(after.peak) / 1024, picture?.counts.total ?? 0))
withExtendedLifetime((queue, monitor)) {}
