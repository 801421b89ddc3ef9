// An app that runs its own work on an ObservableOperationQueue and lets OpsDash watch it.
//
//   swift run AppExample            # prints a status line per second and the final outcomes
//   swift run AppExample --metrics-port 9464   # also serves Prometheus metrics (AppMetrics.swift)
//
// It defines one custom asynchronous operation (a "thumbnail" step that finishes from a timer on
// another thread), uses OpsKit's simulated download for the network part, observes the queue with
// `observe(\.…)` like KVO on macOS, and attaches a QueueMonitor, the same monitor `opsdash` draws.
import Dispatch
import Foundation
import OpsKit
import OpsMonitor

/// The app's own asynchronous step: "renders" a thumbnail on a background queue.
final class ThumbnailOperation: AsyncOperation, @unchecked Sendable {
    private let work = DispatchQueue(label: "thumbnails")
    private let milliseconds: Int

    init(name: String, milliseconds: Int) {
        self.milliseconds = milliseconds
        super.init()
        self.name = name
    }

    override func execute() {
        work.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [weak self] in
            self?.finish()  // idempotent: harmless if the operation was cancelled meanwhile
        }
    }
}

let clock = LiveClock(speed: 4)
let queue = ObservableOperationQueue(name: "app.images")
queue.maxConcurrentOperationCount = 3
let monitor = QueueMonitor(queue: queue, clock: clock)
let exporting = serveMetrics(for: monitor, queueName: "app.images")

// KVO-style observation of the queue, the same source on Linux and macOS.
let countToken = queue.observe(\.allOperationCount, options: [.new]) { _, change in
    if change.newValue == 0 { print("queue drained") }
}

var operations: [Operation] = []
for index in 1...6 {
    let download = DownloadOperation(
        name: "photo-\(index).jpg",
        plan: TransferPlan(totalBytes: Int64(index) * 400_000, bandwidth: 800_000, latency: .milliseconds(200)),
        clock: clock, random: SeededGenerator(seed: UInt64(index)))
    let thumbnail = ThumbnailOperation(name: "thumb-\(index)", milliseconds: 150)
    thumbnail.addDependency(download)
    thumbnail.dependencyPolicy = .cancelIfAnyDependencyFailed
    operations += [download, thumbnail]
}
queue.addOperations(operations, waitUntilFinished: false)
// An operator decision, as the dashboard's `c` key would make it:
(operations[10] as? AsyncOperation)?.cancel(reason: "cancelled by operator")

while queue.allOperationCount > 0 {
    let snapshot = monitor.snapshot()
    let counts = snapshot.counts
    print("t=\(String(format: "%.1f", snapshot.time.seconds))s executing \(counts.executing)/\(snapshot.maxConcurrentOperationCount), waiting \(counts.waiting), done \(counts.finished)/\(counts.total)")
    Thread.sleep(forTimeInterval: 1)
}
queue.waitUntilAllOperationsAreFinished()
for row in monitor.snapshot().operations {
    print("#\(row.id) \(row.name): \(row.outcome?.rawValue ?? row.lifecycle.rawValue)\(row.message.map { " (\($0))" } ?? "")")
}
countToken.invalidate()
exporting?.1.shutdown()
monitor.stop()
