// What monitoring costs per operation, in instructions (issue #28 goal 2): one process drains
// `--count` `ClosureOperation`s through an `ObservableOperationQueue` on one worker, with a
// `QueueMonitor` watching (`--queue=monitored`) or not (`--queue=observable`), and the monitor
// reads the result once at the end (its background applier held off, so the drain is applied in
// one take, as a drain is when the applier waits for it to settle). Run both sides under
// valgrind's callgrind and divide the difference by the count: unlike CPU time, instructions do
// not move with this shared machine's load. `Benchmarks/monitor-instructions.sh` does that.
//
//   swift build -c release --product MonitorCostBench
//   .build/release/MonitorCostBench [--queue=monitored|observable|plain] [--count=100000] [--workers=1]
//       [--applier=off|on]
//
// It counts the recording on the workers and the apply, not what contention and cache misses
// add on two cores (the `Ratios --only=2` rows measure that, by CPU time).
import Foundation
import OpsKit
import OpsMonitor

func option(_ name: String, _ fallback: String) -> String {
    let prefix = "--\(name)="
    return CommandLine.arguments.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) } ?? fallback
}

let kind = option("queue", "monitored")
let monitored = kind == "monitored"
let count = max(1, Int(option("count", "100000")) ?? 100_000)
let workers = max(1, Int(option("workers", "1")) ?? 1)
// `--applier=on`: the monitor's background applier runs as in an app (for CPU time, not for
// instruction counts: when it applies depends on timing).
let applier = option("applier", "off") == "on"

// `--queue=plain`: Foundation's own `OperationQueue`, what the observable queue is measured against.
let queue = kind == "plain" ? OperationQueue() : ObservableOperationQueue(name: "monitor-cost")
queue.maxConcurrentOperationCount = workers
let monitor = monitored ? (queue as? ObservableOperationQueue).map { QueueMonitor(queue: $0) } : nil
if !applier { monitor?.holdChangesUntilRead() }
let operations: [Operation] = (0..<count).map { _ in ClosureOperation {} }
queue.addOperations(operations, waitUntilFinished: true)
if let monitor {
    let counts = monitor.snapshot().counts
    guard counts.succeeded == count else {
        FileHandle.standardError.write(Data("MonitorCostBench: the monitor saw \(counts.succeeded) of \(count)\n".utf8))
        exit(1)
    }
    monitor.stop()
}
print("MonitorCostBench: \(count) operations drained, \(kind), \(workers) worker(s)")
