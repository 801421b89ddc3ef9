import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// How the monitor subscribes: at the queue, and to an operation only while it waits for its
/// dependencies or transfers.
@Suite(.ownThread) struct MonitorSubscriptionTests {
    @Test func readyOperationsCarryNoSubscriptionWaitingOnesUntilTheyAreReady() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock)
        let ready = (0..<100).map { ClosureOperation(name: "r\($0)") {} }
        let waiting = ClosureOperation(name: "w") {}
        waiting.addDependency(ready[0])
        queue.addOperations(ready + [waiting], waitUntilFinished: false)
        #expect(monitor.subscribedOperationCount == 101)
        #expect(ready.allSatisfy { !$0.keyValueObservers.hasObservers }, "no per-operation KVO for ready work")
        #expect(waiting.keyValueObservers.isObserved("isReady"))
        #expect(monitor.snapshot().counts == StateCounts(waiting: 1, ready: 100))
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(monitor.snapshot().counts.succeeded == 101)
        #expect(!waiting.keyValueObservers.hasObservers, "the readiness subscription ends once ready")
        let history = monitor.snapshot().operations.last?.history.map(\.lifecycle)
        #expect(history == [.waiting, .ready, .executing, .finished])
    }

    @Test func aTransferIsWatchedForProgressOnlyWhileItRuns() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock)
        let transfer = DownloadOperation(
            name: "t", plan: TransferPlan(totalBytes: 100, bandwidth: 100, chunkBytes: 25), clock: clock)
        queue.isSuspended = true
        queue.addOperation(transfer)
        #expect(!transfer.keyValueObservers.hasObservers)
        queue.isSuspended = false
        #expect(eventually { transfer.keyValueObservers.isObserved("reportedProgress") && clock.pendingCount > 0 })
        clock.advance(by: .seconds(1))  // four 25-byte chunks at 100 B/s, all on this thread
        #expect(transfer.isFinished)
        #expect(throws: Never.self) { try clock.checkNoScheduledWork() }
        let row = monitor.snapshot().operations.first
        #expect(row?.completedUnits == 100 && row?.outcome == .succeeded)
        #expect(!transfer.keyValueObservers.hasObservers)
        // Progress events arrive in order, each stamped with the clock time it happened at.
        let times = monitor.snapshot().log.filter { $0.kind == .state }.map(\.time)
        #expect(times == times.sorted())
    }

    @Test func aReadSeesEveryChangeRecordedBeforeIt() {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 2
        let monitor = QueueMonitor(queue: queue, clock: clock)
        for round in 1...20 {
            let ops = (0..<50).map { ClosureOperation(name: "\(round)-\($0)") {} }
            queue.addOperations(ops, waitUntilFinished: true)
            queue.waitUntilAllOperationsAreFinished()
            // Every finish was recorded before waitUntil… returned: the snapshot must hold them all.
            #expect(monitor.snapshot().counts.succeeded == round * 50)
        }
    }

    /// The applier takes the inbox only once its backlog is done, and stops only after a take
    /// found nothing (which re-arms scheduling): a burst is applied in the background, with no
    /// read to force it, up to less than one batch (which the next read applies).
    @Test func aBurstIsAppliedInTheBackgroundWithoutAnyRead() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        queue.addOperations((0..<20_000).map { _ in ClosureOperation {} }, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        #expect(
            eventually { monitor.pendingChangeCount < MonitorRecorder.applyBatch },
            "left: \(monitor.pendingChangeCount)")
        #expect(monitor.snapshot().counts.succeeded == 20_000)
    }

    @Test func independentOperationsAreKnownReadyWithoutReadingTheirDependencies() {
        let independent = ClosureOperation {}
        let dependent = ClosureOperation {}
        #expect(!independent.hasHadDependencies && !dependent.hasHadDependencies)
        dependent.addDependency(independent)
        #expect(dependent.hasHadDependencies)
        #expect(!independent.hasHadDependencies)
        dependent.removeDependency(independent)
        #expect(dependent.hasHadDependencies, "once true, stays true: then `dependencies` is read")
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        let waiting = ClosureOperation {}
        waiting.addDependency(independent)
        queue.addOperations([waiting, independent], waitUntilFinished: false)
        #expect(monitor.snapshot().counts == StateCounts(waiting: 1, ready: 1))
        #expect(queue.heldOperationCount == 1)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(monitor.snapshot().counts.succeeded == 2)
    }
}
