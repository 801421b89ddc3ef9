import Foundation
import OpsKit
import Testing
@testable import OpsMonitor

/// Worker threads stamp a change with the clock and then take the inbox lock to record it: a
/// thread preempted in between records its change after a later-stamped one. The monitor hands
/// out non-decreasing times all the same, in events, snapshots and `now`.
@Suite struct EventTimeOrderTests {
    /// A monitor of a suspended queue holding one operation (ticket 1), added at time 0.
    func monitorWithOneOperation() -> (QueueMonitor, ManualClock) {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: true)
        queue.addOperation(BlockOperation {})
        return (monitor, clock)
    }

    @Test func aChangeStampedBeforeAnEarlierRecordedOneIsAppliedAtTheLaterTime() {
        let (monitor, clock) = monitorWithOneOperation()
        clock.advance(by: .seconds(3))
        monitor.recorder.record(.started(ticket: 1, time: .seconds(2)))
        monitor.recorder.record(.finished(ticket: 1, time: .seconds(1)))
        let times = monitor.drainEvents().map(\.time)
        #expect(times == [.zero, .zero, .seconds(2), .seconds(2)], "added, ready, executing, finished")
        let row = monitor.snapshot().operations.first
        #expect(row?.startedAt == .seconds(2))
        #expect(row?.finishedAt == .seconds(2), "not before it started")
    }

    @Test func aChangeStampedBeforeNowWasReadComesNoEarlierThanThatTime() {
        let (monitor, clock) = monitorWithOneOperation()
        _ = monitor.drainEvents()
        clock.advance(by: .seconds(3))
        #expect(monitor.now == .seconds(3))
        monitor.recorder.record(.finished(ticket: 1, time: .seconds(1)))
        #expect(monitor.drainEvents().map(\.time) == [.seconds(3)])
        #expect(monitor.snapshot().time == .seconds(3))
    }

    @Test func aSnapshotTimeIsNeverEarlierThanTheEventsBeforeIt() {
        let (monitor, _) = monitorWithOneOperation()
        monitor.recorder.record(.started(ticket: 1, time: .seconds(5)))
        let (events, snapshot) = monitor.drainEventsAndSnapshot()
        #expect(events.last?.time == .seconds(5))
        #expect(snapshot.time == .seconds(5), "the clock reads 0, the last change was stamped 5")
    }
}
