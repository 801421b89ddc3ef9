import OpsKit
import OpsKitTesting
import Testing

@testable import OpsMonitor

/// A dashboard's once-a-frame read (`frameSnapshot`) leaves the changes recorded since its last
/// read to the background applier and applies only what the applier left for a whole read
/// interval, timing a picture taken with changes left at the oldest of them.
@Suite(.ownThread) struct FrameSnapshotTests {
    /// A suspended queue, its monitor on `clock`, and a background applier that never applies
    /// (its work is replaced before the monitor first asks for it).
    private func monitorWithIdleApplier(clock: ManualClock) -> (ObservableOperationQueue, QueueMonitor) {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock)
        monitor.recorder.applyWith {}
        return (queue, monitor)
    }

    private func drain(_ queue: ObservableOperationQueue) {
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func whatTheApplierLeavesForAReadIntervalIsAppliedByTheNextRead() throws {
        let (queue, monitor) = monitorWithIdleApplier(clock: ManualClock())
        var mark = FrameReadMark()
        let first = try #require(monitor.frameSnapshot(ifChangedSince: nil, mark: &mark))
        #expect(first.counts.total == 0)
        queue.addOperation(ClosureOperation(name: "a") {})
        #expect(
            monitor.frameSnapshot(ifChangedSince: first.version, mark: &mark) == nil,
            "recorded since the last read: left to the applier")
        let third = try #require(monitor.frameSnapshot(ifChangedSince: first.version, mark: &mark))
        #expect(third.operations.map(\.name) == ["a"])
        #expect(monitor.pendingChangeCount == 0)
        drain(queue)
    }

    @Test func aPictureTakenWithChangesLeftIsTimedAtTheOldestOfThem() throws {
        let clock = ManualClock()
        let (queue, monitor) = monitorWithIdleApplier(clock: clock)
        var mark = FrameReadMark()
        _ = monitor.frameSnapshot(ifChangedSince: nil, mark: &mark)
        clock.advance(by: .seconds(1))
        queue.addOperation(ClosureOperation(name: "a") {})
        clock.advance(by: .seconds(2))
        let lagging = try #require(monitor.frameSnapshot(ifChangedSince: nil, mark: &mark))
        #expect(lagging.time == .seconds(1))
        #expect(lagging.counts.total == 0)
        let applied = try #require(monitor.frameSnapshot(ifChangedSince: nil, mark: &mark))
        #expect(applied.operations.first?.addedAt == .seconds(1), "applied at the time it was stamped")
        #expect(applied.time == .seconds(3))
        drain(queue)
    }

    @Test func withoutABackgroundApplierEveryReadAppliesEverything() throws {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        monitor.recorder.disableBackgroundApplier()
        var mark = FrameReadMark()
        _ = monitor.frameSnapshot(ifChangedSince: nil, mark: &mark)
        queue.addOperation(ClosureOperation(name: "a") {})
        let next = try #require(monitor.frameSnapshot(ifChangedSince: nil, mark: &mark))
        #expect(next.operations.map(\.name) == ["a"])
        drain(queue)
    }

    @Test func theBackgroundApplierAppliesWhatAReadLeft() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        var mark = FrameReadMark()
        let first = monitor.frameSnapshot(ifChangedSince: nil, mark: &mark)
        queue.addOperation(ClosureOperation(name: "a") {})
        // This read asks the applier; the applier applies without another read.
        _ = monitor.frameSnapshot(ifChangedSince: first?.version, mark: &mark)
        #expect(eventually { monitor.pendingChangeCount == 0 })
        drain(queue)
    }
}
