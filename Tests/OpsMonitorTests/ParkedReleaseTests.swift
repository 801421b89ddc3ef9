import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// A finished operation whose last reference a dashboard's refresh gives up is freed by the
/// next worker thread that records a change (as the queue frees it without a monitor), not on
/// the dashboard's thread; one that no worker takes is freed by the next refresh, never kept.
@Suite(.ownThread) struct ParkedReleaseTests {
    /// The thread a `Probe`'s deinit ran on.
    final class FreedOn: Sendable {
        private let thread = OpsMutex<ObjectIdentifier?>(nil)
        func note() {
            let current = ObjectIdentifier(Thread.current)
            thread.withLock { $0 = current }
        }
        func withLock<T>(_ body: (ObjectIdentifier?) -> T) -> T { thread.withLock { body($0) } }
    }

    /// An operation that notes the thread its deinit ran on.
    final class Probe: Operation, @unchecked Sendable {
        let freedOn: FreedOn
        init(freedOn: FreedOn) { self.freedOn = freedOn }
        override func main() {}
        deinit { freedOn.note() }
    }

    /// A monitor holding the last reference to a finished `Probe` (its finish not applied yet).
    func finishedProbe() -> (ObservableOperationQueue, QueueMonitor, FreedOn) {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        let freedOn = FreedOn()
        queue.addOperation(Probe(freedOn: freedOn))
        queue.waitUntilAllOperationsAreFinished()
        // The queue's waiters can wake before the worker has recorded the finish.
        #expect(eventually { Self.finishRecorded(monitor) })
        return (queue, monitor, freedOn)
    }

    /// Whether the monitor's inbox holds a finish (recorded, not applied: nothing is applied).
    static func finishRecorded(_ monitor: QueueMonitor) -> Bool {
        monitor.recorder.inbox.withLock { box in
            box.changes.all.contains {
                if case .finished = $0 { return true }
                return false
            }
        }
    }

    @Test func theNextRecordingWorkerFreesWhatARefreshLetGoOf() {
        let (queue, monitor, freedOn) = finishedProbe()
        #expect(freedOn.withLock { $0 } == nil, "the monitor holds the finished probe until it applies")
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        #expect(picture.counts.finished == 1)
        #expect(freedOn.withLock { $0 } == nil, "freed on the refreshing thread")

        // A worker records the next operation's start and finish, and frees the probe.
        queue.addOperation(ClosureOperation {})
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { freedOn.withLock { $0 } != nil })
        let thread = freedOn.withLock { $0 }
        #expect(thread != ObjectIdentifier(Thread.current))
    }

    @Test func whatNoWorkerTookIsFreedByTheNextRefresh() {
        // Told to the monitor from this thread, not run on the queue: a queue's worker can hold
        // its own reference for a while after it recorded the finish (on a loaded machine, past
        // both refreshes), and would then free the probe itself.
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        monitor.recorder.disableBackgroundApplier()
        let freedOn = FreedOn()
        do {
            let probe = Probe(freedOn: freedOn)
            monitor.recorder.operationsAdded([probe], tickets: [7])
            probe.start()
            monitor.recorder.operationFinished(probe, ticket: 7)
        }
        #expect(freedOn.withLock { $0 } == nil, "the monitor holds the finished probe until it applies")
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        #expect(freedOn.withLock { $0 } == nil)
        // Nothing recorded since: the next refresh (nothing changed) frees it itself.
        #expect(!monitor.refresh(&picture, ifChangedSince: picture.version))
        #expect(freedOn.withLock { $0 } == ObjectIdentifier(Thread.current))
    }

    @Test func aRecordingThreadTakesAFewAtATime() {
        var parked = Parked()
        parked.operations = (0..<(Parked.takeLimit + 5)).map { _ in BlockOperation {} }
        let first = parked.take()
        #expect(first.operations.count == Parked.takeLimit)
        #expect(parked.operations.count == 5)
        #expect(parked.take().operations.count == 5)
        #expect(parked.isEmpty)
    }
}
