import DemoSupport
import Foundation
import OpsKit
import OpsKitPublisher
import OpsMonitor
import ServiceLifecycle

/// The app's work, a `Service` in its group: once the queue is published (and, with
/// `waitForViewer`, a viewer is attached) it adds the transfers, waits for them, and prints what
/// the server moved and how each transfer ended. With `exitWhenDone` the group then shuts down;
/// otherwise it keeps publishing until a stop signal. A stop signal cancels what is left.
struct TransferWork: Service {
    let queue: ObservableOperationQueue
    let monitor: QueueMonitor
    let publisher: QueuePublisher
    let server: FileServer
    let transfers: [TransferOperation]
    let waitForViewer: Bool
    let exitWhenDone: Bool
    /// Yields once the queue is published; finishes without a value when publishing failed.
    let published: AsyncStream<Void>

    func run() async {
        var publishedYet = published.makeAsyncIterator()
        guard await publishedYet.next() != nil else { return }  // the app ends with the publisher's error
        if waitForViewer {
            say("waiting for a viewer: opsdash attach")
            while !stopping, (publisher.statistics()?.viewers ?? 0) == 0 { await pause(.milliseconds(50)) }
        }
        if !stopping { queue.addOperations(transfers, waitUntilFinished: false) }
        while !stopping, queue.allOperationCount > 0 { await pause(.milliseconds(100)) }
        if stopping { queue.cancelAllOperations() }
        let queue = self.queue
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                queue.waitUntilAllOperationsAreFinished()
                done.resume()
            }
        }
        report()
        if !exitWhenDone && !stopping {
            say("all transfers done; still publishing until Ctrl-C")
            try? await gracefulShutdown()
        }
    }

    /// Graceful shutdown (a stop signal) or cancellation (another service failed).
    private var stopping: Bool { Task.isShuttingDownGracefully || Task.isCancelled }

    /// Sleeps `duration`, or less when graceful shutdown comes.
    private func pause(_ duration: Duration) async {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
    }

    /// One line per transfer (how it ended, and the bytes the server sent or received of it),
    /// then the counts.
    private func report() {
        let sent = server.tally.sentBytes
        let received = server.tally.receivedBytes
        for transfer in transfers {
            let name = transfer.name ?? "transfer"
            let outcome = transfer.outcome.map { "\($0)" } ?? "not started"
            switch transfer.direction {
            case .download: say("\(name): \(outcome); server sent \(sent[name] ?? 0) bytes")
            case .upload: say("\(name): \(outcome); server received \(received[name] ?? 0) bytes")
            }
        }
        let counts = monitor.snapshot().counts
        say("done: \(counts.succeeded) succeeded, \(counts.failed) failed, \(counts.cancelled) cancelled")
    }
}
