// An app that runs its own work on an ObservableOperationQueue and lets OpsDash watch it.
//
//   swift run AppExample            # prints a status line per second and the final outcomes
//
// It defines one custom asynchronous operation (a "thumbnail" step that renders tiles on another
// thread and reports each one, so the monitor shows its progress, rate and ETA like any
// transfer), uses OpsKit's simulated download for the network part, observes the queue with
// `observe(\.…)` like KVO on macOS, and attaches a QueueMonitor, the same monitor `opsdash` draws.
import Dispatch
import Foundation
import OpsKit
import OpsMonitor
import Synchronization

/// The app's own asynchronous step: "renders" a thumbnail tile by tile on a background queue,
/// reporting each tile.
final class ThumbnailOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    // Locking: `stopped` is atomic; everything else is immutable.
    let kind = OperationKind.process
    let progressStorage: ProgressStorage
    private let work = DispatchQueue(label: "thumbnails")
    private let tiles: Int
    private let millisecondsPerTile: Int
    private let stopped = Atomic<Bool>(false)

    init(name: String, tiles: Int, millisecondsPerTile: Int) {
        self.tiles = tiles
        self.millisecondsPerTile = millisecondsPerTile
        self.progressStorage = ProgressStorage(total: Int64(tiles), unit: .items)
        super.init()
        self.name = name
    }

    override func execute() {
        renderTile(1)
    }

    override func operationDidCancel() {
        stopped.store(true, ordering: .relaxed)
    }

    private func renderTile(_ tile: Int) {
        work.asyncAfter(deadline: .now() + .milliseconds(millisecondsPerTile)) { [weak self] in
            guard let self, !self.stopped.load(ordering: .relaxed) else { return }
            self.reportProgress(completed: Int64(tile))
            if tile < self.tiles {
                self.renderTile(tile + 1)
            } else {
                self.finish()  // idempotent: harmless if the operation was cancelled meanwhile
            }
        }
    }
}

let clock = LiveClock(speed: 4)
let queue = ObservableOperationQueue(name: "app.images")
queue.maxConcurrentOperationCount = 3
let monitor = QueueMonitor(queue: queue, clock: clock)

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
    let thumbnail = ThumbnailOperation(name: "thumb-\(index)", tiles: 8, millisecondsPerTile: 60)
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
    // Any operation that reports progress shows it: the simulated downloads (bytes) and the
    // app's own thumbnails (tiles) alike.
    for row in snapshot.operations where row.lifecycle == .executing && row.totalBytes > 0 {
        let unit = row.unit == .items ? "tiles" : "bytes"
        print("  \(row.kind.rawValue) \(row.name): \(row.completedBytes)/\(row.totalBytes) \(unit), \(Int(row.bytesPerSecond))/s")
    }
    Thread.sleep(forTimeInterval: 0.5)
}
queue.waitUntilAllOperationsAreFinished()
for row in monitor.snapshot().operations {
    print("#\(row.id) \(row.name): \(row.outcome?.rawValue ?? row.lifecycle.rawValue)\(row.message.map { " (\($0))" } ?? "")")
}
countToken.invalidate()
monitor.stop()
