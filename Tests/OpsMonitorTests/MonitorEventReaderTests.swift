import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// Several consumers of one monitor's events (two publishers, a recorder, the app's own code):
/// each gets every event recorded while it reads, whatever the others take or stop doing.
@Suite(.ownThread) struct MonitorEventReaderTests {
    private static func names(_ events: [MonitorEvent]) -> [String] {
        events.compactMap { event in
            if case .state(_, let id, _, let to, _, _) = event { return "#\(id) \(to)" }
            return nil
        }
    }

    @Test func everyReaderGetsEveryEventWhateverTheOthersDo() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock(), recordEvents: true)
        let first = monitor.makeEventReader()
        let second = monitor.makeEventReader()
        #expect(!first.isReading)
        first.setReading(true)
        second.setReading(true)
        queue.addOperations([ClosureOperation(name: "a") {}], waitUntilFinished: false)
        #expect(eventually { monitor.snapshot().counts.ready == 1 })
        let early = Self.names(first.drain())
        #expect(early == ["#1 ready"])
        // The monitor's own reader and the second one still have what the first drained.
        #expect(Self.names(monitor.drainEvents()) == ["#1 ready"])
        second.setReading(false)  // a publisher whose last viewer left: the others go on
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        #expect(Self.names(first.drain()) == ["#1 executing", "#1 finished"])
        #expect(Self.names(monitor.drainEvents()) == ["#1 executing", "#1 finished"])
        #expect(second.drain().isEmpty, "not reading: nothing kept for it")
    }

    /// A publisher that gives up following (a burst) must not pay for the monitor's backlog:
    /// `stopReading()` applies nothing, and the changes it left are not read later either.
    @Test func stoppingReadingAppliesNothingAndReadsNothingLeftPending() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        let reader = monitor.makeEventReader()
        reader.setReading(true)
        // Fewer than a background batch: they wait in the inbox until someone applies them.
        queue.addOperations((0..<10).map { ClosureOperation(name: "op\($0)") {} }, waitUntilFinished: false)
        #expect(monitor.pendingChangeCount == 10)
        reader.stopReading()
        #expect(!reader.isReading)
        #expect(monitor.pendingChangeCount == 10, "nothing applied on the caller's thread")
        monitor.applyPendingChanges()
        #expect(monitor.snapshot().counts.ready == 10)
        #expect(reader.drain().isEmpty, "changes pending when it stopped are not read")
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func aReleasedReaderStopsCollecting() {
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        var reader: MonitorEventReader? = monitor.makeEventReader()
        reader?.setReading(true)
        reader = nil
        queue.addOperations([ClosureOperation {}], waitUntilFinished: true)
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        #expect(monitor.state.withLock { $0.store.eventQueues.isEmpty }, "nobody reads: no event is kept")
    }
}
