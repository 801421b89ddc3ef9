import Dispatch
import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

@Suite(.ownThread) struct QueueMonitorTests {
    @Test func snapshotMatchesTheQueueAfterAStressRun() {
        let clock = LiveClock(speed: 2_000)
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 8
        let monitor = QueueMonitor(queue: queue, clock: clock)
        var ops: [SimulatedWorkOperation] = []
        var random = SeededGenerator(seed: 7)
        for index in 0..<2_000 {
            let failure = index % 17 == 0 ? FailurePlan(atFraction: 0.5, message: "boom") : nil
            let plan = TransferPlan(
                totalBytes: Int64.random(in: 1_000...200_000, using: &random), bandwidth: 1_000_000, failure: failure,
                maxRetries: index % 34 == 0 ? 1 : 0, retryBackoff: .milliseconds(10))
            let op =
                index % 2 == 0
                ? DownloadOperation(name: "d\(index)", plan: plan, clock: clock)
                : UploadOperation(name: "u\(index)", plan: plan, clock: clock)
            if index >= 10, index % 5 == 0 { op.addDependency(ops[index - 10]) }
            ops.append(op)
        }
        queue.addOperations(ops, waitUntilFinished: false)
        let all = ops
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker * 9, to: all.count, by: 37) { all[index].cancel() }
        }
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })

        let snapshot = monitor.snapshot()
        #expect(snapshot.operations.count == ops.count)
        #expect(snapshot.counts.total == ops.count)
        #expect(snapshot.counts.finished == ops.count)
        var expected = StateCounts()
        for (op, row) in zip(ops, snapshot.operations) {
            #expect(row.name == op.name)
            #expect(row.lifecycle == .finished)
            switch op.outcome {
            case .succeeded?: expected.succeeded += 1; #expect(row.outcome == .succeeded)
            case .failed?: expected.failed += 1; #expect(row.outcome == .failed)
            case .cancelled?: expected.cancelled += 1; #expect(row.outcome == .cancelled)
            case nil: Issue.record("\(op.name ?? "") has no outcome")
            }
            #expect(row.completedUnits == (op.outcome?.isSucceeded == true ? op.totalBytes : op.completedBytes))
        }
        #expect(snapshot.counts == expected)
        #expect(expected.failed > 0 && expected.cancelled > 0 && expected.succeeded > 0)
        #expect(snapshot.drainedAt != nil, "every operation finished")
        #expect(
            snapshot.operations.filter { !$0.dependencies.isEmpty }.count
                == ops.filter { !$0.dependencies.isEmpty }.count)
    }

    @Test func releasesEveryOperationSubscriptionWhenOperationsFinish() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock)
        let ops = (0..<50).map { ClosureOperation(name: "c\($0)") {} }
        queue.addOperations(ops, waitUntilFinished: true)
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        #expect(ops.allSatisfy { !$0.keyValueObservers.hasObservers }, "no observer left behind")
        monitor.stop()
        #expect(!queue.keyValueObservers.hasObservers)
    }

    @Test func showsHeldDependentsAsWaitingUntilTheirDependencyFinishes() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock)
        let first = DownloadOperation(
            name: "first", plan: TransferPlan(totalBytes: 10, bandwidth: 10, chunkBytes: 10), clock: clock)
        let second = DownloadOperation(
            name: "second", plan: TransferPlan(totalBytes: 10, bandwidth: 10, chunkBytes: 10), clock: clock)
        second.addDependency(first)
        queue.addOperations([first, second], waitUntilFinished: false)
        #expect(eventually { monitor.snapshot().operation(id: 1)?.lifecycle == .executing })
        let waiting = monitor.snapshot()
        #expect(waiting.operation(id: 2)?.lifecycle == .waiting)
        #expect(waiting.operation(id: 2)?.dependencies == [1])
        #expect(waiting.counts == StateCounts(waiting: 1, executing: 1))
        // Drive virtual time once the work is scheduled, then wait for what it causes.
        #expect(eventually { clock.pendingCount > 0 })
        clock.advance(by: .seconds(1))  // `first` moves its 10 bytes and finishes; the queue starts `second`
        #expect(eventually { second.isFinished || (second.isExecuting && clock.pendingCount > 0) })
        clock.advance(by: .seconds(1))
        #expect(eventually { monitor.snapshot().counts.succeeded == 2 })
        #expect(throws: Never.self) { try clock.checkNoScheduledWork() }
        let done = monitor.snapshot()
        #expect(done.operation(id: 2)?.history.map(\.lifecycle) == [.waiting, .ready, .executing, .finished])
        #expect(done.operation(id: 2).map { $0.startedAt! >= done.operation(id: 1)!.finishedAt! } == true)
    }

    @Test func operatorActionsReachTheQueueAndTheLog() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: true)
        let ops = (0..<3).map {
            DownloadOperation(name: "d\($0)", plan: TransferPlan(totalBytes: 100, bandwidth: 10), clock: clock)
        }
        queue.addOperations(ops, waitUntilFinished: false)
        monitor.setMaxConcurrentOperationCount(2)
        #expect(queue.maxConcurrentOperationCount == 2)
        monitor.cancel(id: 2)
        #expect(ops[1].isCancelled)
        monitor.setSuspended(false)
        #expect(eventually { monitor.snapshot().counts.cancelled == 1 && monitor.snapshot().counts.executing == 2 })
        monitor.cancelAll()
        #expect(eventually { monitor.snapshot().counts.cancelled == 3 })
        let snapshot = monitor.snapshot()
        #expect(snapshot.maxConcurrentOperationCount == 2)
        #expect(!snapshot.isSuspended)
        #expect(snapshot.operation(id: 2)?.message == "cancelled by operator")
        let texts = snapshot.log.map(\.text)
        for expected in [
            "concurrency limit unlimited→2", "operator cancelled #2", "queue resumed",
            "operator cancelled all operations",
        ] {
            #expect(texts.contains(expected), "log has \(expected)")
        }
        let queueEvents = monitor.drainEvents().compactMap { event -> String? in
            if case .queue(_, _, _, _, let reason) = event { return reason } else { return nil }
        }
        #expect(
            queueEvents == [
                "concurrency limit unlimited→2", "operator cancelled #2", "queue resumed",
                "operator cancelled all operations",
            ])
    }

    /// Cancelling everything takes in the changes it causes on the cancelling thread: the next
    /// reader (a dashboard's frame) has nothing left to apply.
    @Test func cancelAllLeavesNoBacklog() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        // Waiting for a gate that never comes: each becomes ready when cancelled.
        let gate = ClosureOperation {}
        let ops = (0..<(3 * QueueMonitor.cancelSlice)).map { _ in
            let op = ClosureOperation {}
            op.addDependency(gate)
            return op
        }
        queue.addOperations(ops, waitUntilFinished: false)
        monitor.applyPendingChanges()
        #expect(monitor.snapshot().counts.waiting == ops.count)
        monitor.cancelAll()
        #expect(monitor.pendingChangeCount == 0)
        #expect(monitor.snapshot().counts.waiting == 0, "\(monitor.snapshot().counts)")
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func unchangedMonitorHandsOutNoNewSnapshot() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock)
        queue.addOperation(ClosureOperation {})
        let first = monitor.snapshot()
        #expect(monitor.snapshot(ifChangedSince: first.version) == nil)
        queue.maxConcurrentOperationCount = 3
        #expect(monitor.snapshot(ifChangedSince: first.version)?.maxConcurrentOperationCount == 3)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }
}

@Suite(.ownThread) struct QueueMonitorLinkTests {
    @Test func aDependentAddedAfterItsDependencyFinishedStillShowsTheLink() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        let first = ClosureOperation(name: "first") {}
        queue.addOperations([first], waitUntilFinished: true)
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        let second = ClosureOperation(name: "second") {}
        second.addDependency(first)
        queue.addOperations([second], waitUntilFinished: true)
        #expect(eventually { monitor.snapshot().counts.succeeded == 2 })
        #expect(monitor.snapshot().operation(id: 2)?.dependencies == [1])
    }

    /// The finished operations are looked up by operation only once a dependent asks; finishes
    /// after that are found too.
    @Test func finishesAfterTheFirstLookUpAreFoundToo() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        var previous: ClosureOperation?
        for index in 1...3 {
            let op = ClosureOperation(name: "op\(index)") {}
            if let previous { op.addDependency(previous) }
            queue.addOperations([op], waitUntilFinished: true)
            #expect(eventually { monitor.snapshot().counts.succeeded == index })
            previous = op
        }
        #expect(monitor.snapshot().operations.map(\.dependencies) == [[], [1], [2]])
    }

    /// An operation that is not an `AsyncOperation` is recognised after its finish by a weak
    /// reference (it has no serial number).
    @Test func aDependentAddedAfterAFinishedPlainOperationStillShowsTheLink() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        let first = BlockOperation {}
        queue.addOperations([first], waitUntilFinished: true)
        #expect(eventually { monitor.snapshot().counts.succeeded == 1 })
        let second = ClosureOperation(name: "second") {}
        second.addDependency(first)
        queue.addOperations([second], waitUntilFinished: true)
        #expect(eventually { monitor.snapshot().counts.succeeded == 2 })
        #expect(monitor.snapshot().operation(id: 2)?.dependencies == [1])
    }
}
