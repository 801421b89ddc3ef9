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
    /// How many operations `start()` has added so far.
    private let added = Atomic<Int>(0)

    /// Sets up the queue and its monitor for `scenario`; `start()` builds and adds the operations.
    init(scenario: ResolvedScenario, concurrency: Int?, speed: Double, recordEvents: Bool) {
        // Standing still until `start()` has built the operations: at `--speed 10000` each
        // millisecond of building would otherwise be 10 s of empty time before the first event.
        clock = LiveClock(speed: speed, paused: true)
        queue = ObservableOperationQueue(name: "opsdash.\(scenario.name)")
        queue.maxConcurrentOperationCount = concurrency ?? scenario.concurrency
        monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: recordEvents)
        self.scenario = scenario
    }

    /// Builds the operations (dependencies wired) and adds them to the queue, `addBatch` at a
    /// time, until `stopAdding()`: a dashboard is up while a large scenario is still being built
    /// and added (a million operations take ~1 s to build and ~3 s to add). The monitor takes in
    /// each batch on this thread, so the dashboard's thread never has a backlog to apply before
    /// its next picture.
    func start() {
        let operations = Self.makeOperations(scenario, clock: clock)
        clock.resume()
        var next = operations.startIndex
        while next < operations.endIndex, !addingStopped.load(ordering: .relaxed) {
            let end = min(next + Self.addBatch, operations.endIndex)
            queue.addOperations(Array(operations[next..<end]), waitUntilFinished: false)
            monitor.applyPendingChanges()
            added.store(end, ordering: .releasing)
            next = end
        }
    }

    /// Operations of the scenario not added to the queue (yet, or ever after `stopAdding()`).
    var notAddedCount: Int {
        scenario.operations.count - added.load(ordering: .acquiring)
    }

    /// Makes `start()` add no further batch (the dashboard closed while it was adding).
    func stopAdding() {
        addingStopped.store(true, ordering: .relaxed)
    }

    /// How many operations `start` adds at once (a million take ~3 s to add in all).
    static let addBatch = 10_000

    /// True once every operation finished and the monitor has recorded it.
    var isDone: Bool {
        queue.allOperationCount == 0 && monitor.subscribedOperationCount == 0
    }

    static func makeOperations(_ scenario: ResolvedScenario, clock: any SimulationClock) -> [Operation] {
        let root = SeededGenerator(seed: scenario.seed)
        var byID: [String: Operation] = [:]
        var ordered: [Operation] = []
        for (index, spec) in scenario.operations.enumerated() {
            let random = root.derived(UInt64(index))
            let op: SimulatedWorkOperation
            switch spec.kind {
            case .download:
                op = DownloadOperation(
                    name: spec.name, plan: spec.plan ?? Self.fallbackPlan, clock: clock, random: random)
            case .upload:
                op = UploadOperation(
                    name: spec.name, plan: spec.plan ?? Self.fallbackPlan, clock: clock, random: random)
            case .process, .other:  // a scenario never holds `.other` (the loader rejects it)
                op = ProcessOperation(
                    name: spec.name, duration: spec.duration ?? .seconds(1),
                    // A process step fails at its end (docs/SCENARIOS.md).
                    failure: spec.processFailure.map { FailurePlan(atFraction: 1, message: $0) },
                    clock: clock, random: random)
            }
            op.dependencyPolicy = spec.dependencyPolicy
            byID[spec.id] = op
            ordered.append(op)
        }
        for (spec, op) in zip(scenario.operations, ordered) {
            for dependency in spec.dependencies {
                if let target = byID[dependency] { op.addDependency(target) }
            }
        }
        return ordered
    }

    private static let fallbackPlan = TransferPlan(totalBytes: 1, bandwidth: 1)
}
