import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// A thread adding operations applies the monitor's inbox itself once
/// `MonitorRecorder.addedLimit` changes wait, so a background applier that gets no CPU never
/// leaves one pending `added` change per queued operation; one large batch is left to the
/// applier. The background applier is off here: only reads and back-pressure apply.
@Suite(.ownThread) struct MonitorAddBackPressureTests {
    private func suspendedQueueAndMonitor() -> (ObservableOperationQueue, QueueMonitor) {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        monitor.recorder.disableBackgroundApplier()
        return (queue, monitor)
    }

    private func drain(_ queue: ObservableOperationQueue) {
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func addingOneAtATimeKeepsTheInboxUnderTheLimitInAddingOrder() {
        let (queue, monitor) = suspendedQueueAndMonitor()
        let count = 3 * MonitorRecorder.addedLimit
        var most = 0
        for index in 0..<count {
            queue.addOperation(ClosureOperation(name: "op-\(index)") {})
            most = max(most, monitor.pendingChangeCount)
        }
        #expect(most <= MonitorRecorder.addedLimit)
        let snapshot = monitor.snapshot()
        #expect(snapshot.operations.map(\.name) == (0..<count).map { "op-\($0)" })
        #expect(snapshot.counts.ready == count)
        drain(queue)
    }

    @Test func oneLargeBatchIsLeftToTheApplierAndTheNextAddAppliesIt() {
        let (queue, monitor) = suspendedQueueAndMonitor()
        let count = MonitorRecorder.addedLimit + 10
        queue.addOperations((0..<count).map { _ in ClosureOperation {} }, waitUntilFinished: false)
        #expect(monitor.pendingChangeCount == count)
        queue.addOperation(ClosureOperation {})
        #expect(monitor.pendingChangeCount == 0)
        #expect(monitor.snapshot().counts.total == count + 1)
        drain(queue)
    }
}
