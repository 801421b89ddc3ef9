import Foundation
import OpsKit
import OpsMonitor
import OpsScenarios
import Synchronization

/// A scenario made real: its operations on an `ObservableOperationQueue` with a monitor attached,
/// on a live clock running `speed` times faster than the wall clock from the moment `start()`
/// begins adding them.
final class ScenarioRun: Sendable {
    let clock: LiveClock
    let queue: ObservableOperationQueue
    let monitor: QueueMonitor
    private let scenario: ResolvedScenario
    private let addingStopped = Atomic<Bool>(false)
    /// Set by `cancelAll()`: the batch being added is cancelled as it lands.
    private let cancelling = Atomic<Bool>(false)
    /// How many operations `start()` has added so far.
    private let added = Atomic<Int>(0)
    /// Entered while `startAdding()`'s thread runs `start()`.
    private let adding = DispatchGroup()

    /// Sets up the queue and its monitor for `scenario`; `start()` builds and adds the operations.
    init(
        scenario: ResolvedScenario, concurrency: Int?, speed: Double, recordEvents: Bool,
        limits: MonitorStore.Limits = .init()
    ) {
        // Standing still until `start()` has built the operations: at `--speed 10000` each
        // millisecond of building would otherwise be 10 s of empty time before the first event.
        clock = LiveClock(speed: speed, paused: true)
        queue = ObservableOperationQueue(name: "opsdash.\(scenario.name)")
        queue.maxConcurrentOperationCount = concurrency ?? scenario.concurrency
        monitor = QueueMonitor(queue: queue, clock: clock, limits: limits, recordEvents: recordEvents)
        self.scenario = scenario
    }

    /// Makes the operations (dependencies wired) and adds them to the queue, `addBatch` at a
    /// time, until `stopAdding()`: a dashboard is up while a large scenario is still being made
    /// and added (a million operations take seconds), and the first ones run meanwhile. The
    /// monitor takes in each batch on this thread, so the dashboard's thread never has a
    /// backlog to apply before its next picture.
    func start() {
        var operations = ScenarioOperations(scenario, clock: clock)
        var next = 0
        var count = 0
        while next < operations.count, !addingStopped.load(ordering: .relaxed) {
            let end = min(next + Self.addBatch, operations.count)
            // With the dependencies from later in the file it holds (a batch can be larger).
            let batch = operations.batch(next..<end)
            if next == 0 { clock.resume() }
            queue.addOperations(batch, waitUntilFinished: false)
            // Cancel-all came while this batch was being made or added: it may have missed it.
            if cancelling.load(ordering: .sequentiallyConsistent) {
                for op in batch { QueueMonitor.cancelAsOperator(op) }
            }
            monitor.applyPendingChanges()
            count += batch.count
            added.store(count, ordering: .releasing)
            next = end
        }
    }

    /// Runs `start()` on a thread of its own, so that a dashboard or the headless stream is
    /// live while a large scenario is being added; `stopAdding()` ends it.
    func startAdding() {
        adding.enter()
        Thread.detachNewThread { [self] in
            nameCurrentThread(Self.addingThreadName)
            start()
            adding.leave()
        }
    }

    /// The name of `startAdding()`'s thread.
    static let addingThreadName = "opsdash.adding"

    /// Whether the first operations were added and the clock started.
    var hasStarted: Bool { added.load(ordering: .acquiring) > 0 }

    /// Operations of the scenario not added to the queue (yet, or ever after `stopAdding()`).
    var notAddedCount: Int {
        scenario.operations.count - added.load(ordering: .acquiring)
    }

    /// Makes `start()` add no further batch (the dashboard closed while it was adding) and waits
    /// for the batch being added, if any, so that the counts and `notAddedCount` read after it
    /// agree (and a stream drained after it holds every operation that reached the queue).
    func stopAdding() {
        addingStopped.store(true, ordering: .relaxed)
        adding.wait()
    }

    /// Cancels every operation: the adding stops after the batch in hand, which is cancelled as
    /// it lands, and what the queue holds is cancelled now, without waiting for that batch (the
    /// operations already added would run meanwhile).
    func cancelAll() {
        cancelling.store(true, ordering: .sequentiallyConsistent)
        addingStopped.store(true, ordering: .sequentiallyConsistent)
        monitor.cancelAll()
    }

    /// Whether `stopAdding()` or `cancelAll()` was called.
    var isAddingStopped: Bool { addingStopped.load(ordering: .relaxed) }

    /// How many operations `start` makes and adds at once.
    static let addBatch = 10_000

    /// `snapshot` as the run's picture: not drained (DONE, the clock stopped) while operations
    /// remain to be added, though the queue may run dry between two batches.
    func picture(_ snapshot: QueueSnapshot) -> QueueSnapshot {
        guard snapshot.isDrained, notAddedCount > 0 else { return snapshot }
        var picture = snapshot
        picture.drainedAt = nil
        return picture
    }

    /// True once every operation was added, finished, and the monitor has recorded it.
    var isDone: Bool {
        notAddedCount == 0 && queue.allOperationCount == 0 && monitor.subscribedOperationCount == 0
    }
}
