import DemoSupport
import Foundation
import OpsKit
import OpsMonitor
import ServiceLifecycle

/// The app's own work, a `Service` in the app's group: rounds of downloads and thumbnails, with a
/// status line a second, until `rounds` are done or graceful shutdown (which cancels what is
/// left); then the summary line.
struct AppWork: Service {
    let queue: ObservableOperationQueue
    let monitor: QueueMonitor
    let clock: LiveClock
    /// Rounds to run; 0 runs until shut down.
    let rounds: Int
    /// Yields once the queue is published; finishes without a value when publishing failed.
    let published: AsyncStream<Void>

    func run() async {
        var publishedYet = published.makeAsyncIterator()
        guard await publishedYet.next() != nil else { return }  // the app ends with the publisher's error
        var round = 0
        while !stopping && (rounds == 0 || round < rounds) {
            round += 1
            let operations = makeRound(round)
            queue.addOperations(operations, waitUntilFinished: false)
            if round == 1 {
                // The demo's own failure plan, so a cancelled operation (and the thumbnail that
                // depended on it) shows from the start; no operator did this, and the reason says so.
                if let planned = operations[10] as? AsyncOperation {
                    planned.cancel(reason: AppExampleText.plannedCancelReason)
                    say("\(planned.name ?? "an operation"): \(AppExampleText.plannedCancelReason)")
                }
            }
            while queue.allOperationCount > 0 && !stopping {
                sayStatus()
                // A second, or less when graceful shutdown comes.
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
            }
        }
        if stopping { queue.cancelAllOperations() }
        let queue = self.queue
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                queue.waitUntilAllOperationsAreFinished()
                done.resume()
            }
        }
        say(AppExampleText.summary(monitor.snapshot().counts))
    }

    /// Graceful shutdown (a stop signal) or cancellation (another service failed).
    private var stopping: Bool { Task.isShuttingDownGracefully || Task.isCancelled }

    /// The queue in one line, and a line for each running operation that reports progress: the
    /// simulated downloads (bytes) and the app's own thumbnails (tiles) alike.
    private func sayStatus() {
        let snapshot = monitor.snapshot()
        let counts = snapshot.counts
        say(
            "t=\(String(format: "%.1f", snapshot.time.seconds))s executing \(counts.executing)/\(snapshot.maxConcurrentOperationCount), waiting \(counts.waiting), done \(counts.finished)/\(counts.total)"
        )
        for row in snapshot.operations where row.lifecycle == .executing && row.totalUnits > 0 {
            let unit = row.unit == .items ? "tiles" : "bytes"
            say(
                "  \(row.kind.rawValue) \(row.name): \(row.completedUnits)/\(row.totalUnits) \(unit), \(Int(row.unitsPerSecond))/s"
            )
        }
    }

    /// One round of work: six downloads, each followed by its thumbnail.
    private func makeRound(_ round: Int) -> [Operation] {
        var operations: [Operation] = []
        for index in 1...6 {
            let download = DownloadOperation(
                name: "photo-\(round)-\(index).jpg",
                plan: TransferPlan(totalBytes: Int64(index) * 400_000, bandwidth: 800_000, latency: .milliseconds(200)),
                clock: clock, random: SeededGenerator(seed: UInt64(round * 10 + index)))
            let thumbnail = ThumbnailOperation(name: "thumb-\(round)-\(index)", tiles: 8, millisecondsPerTile: 60)
            thumbnail.addDependency(download)
            thumbnail.dependencyPolicy = .cancelIfAnyDependencyFailed
            operations += [download, thumbnail]
        }
        return operations
    }
}
