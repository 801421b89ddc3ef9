import Foundation
import OpsKit
import OpsKitTesting
import OpsScenarios
import Testing

@testable import OpsDashApp
@testable import OpsMonitor

/// How a scenario's operations reach the queue: in batches the monitor takes in as they come,
/// until the dashboard closes.
@Suite(.ownThread) struct ScenarioRunAddingTests {
    /// A run of `count` one-second process steps, its queue paused so nothing moves on its own.
    static func pausedRun(of count: Int) throws -> ScenarioRun {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsdash-adding-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let json = """
            {"name": "adding", "description": "batches", "concurrency": 2, "seed": 1, "operations": [
              {"id": "step-{i}", "kind": "process", "repeat": \(count), "duration": 1}]}
            """
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let scenario = try ScenarioCatalog.load(file, seed: nil)
        let run = ScenarioRun(scenario: scenario, concurrency: nil, speed: 1, recordEvents: false)
        run.queue.isSuspended = true
        return run
    }

    @Test func eachBatchIsTakenInByTheMonitorOnTheAddingThread() throws {
        let run = try Self.pausedRun(of: 2 * ScenarioRun.addBatch + 1)
        // Nothing is built before `start()`: the dashboard is up first.
        #expect(run.queue.allOperationCount == 0)
        #expect(run.notAddedCount == 2 * ScenarioRun.addBatch + 1)
        run.start()
        #expect(run.notAddedCount == 0)
        #expect(run.queue.allOperationCount == 2 * ScenarioRun.addBatch + 1)
        // Nothing left for the dashboard's thread to apply before its next picture.
        #expect(run.monitor.pendingChangeCount == 0)
        #expect(run.monitor.snapshot().counts.total == 2 * ScenarioRun.addBatch + 1)
        run.queue.cancelAllOperations()
        run.queue.isSuspended = false
    }

    /// The queue can run dry between two batches: the run's picture is not DONE while
    /// operations remain to be added.
    @Test func aRunIsNotDrainedWhileOperationsRemainToBeAdded() throws {
        let run = try Self.pausedRun(of: 2 * ScenarioRun.addBatch)
        // The first batch is added, then every operation in it is cancelled and finishes.
        let token = run.queue.observe(\.operationCount, options: [.new]) { _, _ in run.stopAdding() }
        run.start()
        run.queue.cancelAllOperations()
        run.queue.isSuspended = false
        run.queue.waitUntilAllOperationsAreFinished()
        _ = token
        let snapshot = run.monitor.snapshot()
        #expect(snapshot.isDrained, "every operation that reached the queue finished")
        #expect(!run.picture(snapshot).isDrained)
        #expect(!run.isDone)
        // Once all are added, the picture is the monitor's.
        let whole = try Self.pausedRun(of: 3)
        whole.start()
        whole.queue.cancelAllOperations()
        whole.queue.isSuspended = false
        whole.queue.waitUntilAllOperationsAreFinished()
        #expect(eventually(timeout: .seconds(10)) { whole.picture(whole.monitor.snapshot()).isDrained })
    }

    /// An entry naming a dependency later in the file: the stream's `added` line lists it (the
    /// dependency is added first), so recordings and replays show the link too.
    @Test func theAddedEventListsADependencyFromLaterInTheFile() throws {
        let json = """
            {"name": "forward", "description": "d", "concurrency": 2, "seed": 1, "operations": [
              {"id": "a", "kind": "process", "duration": 1, "after": ["b"]},
              {"id": "b", "kind": "process", "duration": 1}]}
            """
        let scenario = try ScenarioLoader.decode(data: Data(json.utf8), source: "forward")
        let run = ScenarioRun(scenario: scenario, concurrency: nil, speed: 1, recordEvents: true)
        run.queue.isSuspended = true
        run.start()
        var ids: [String: Int] = [:]
        var after: [String: [Int]] = [:]
        for case .added(_, let id, let name, _, _, _, let dependencies) in run.monitor.drainEvents() {
            ids[name] = id
            after[name] = dependencies
        }
        #expect(after["b"] == [])
        #expect(after["a"] == [try #require(ids["b"])])
        run.queue.cancelAllOperations()
        run.queue.isSuspended = false
    }

    @Test func stoppingAddsNoFurtherBatch() throws {
        let run = try Self.pausedRun(of: 3 * ScenarioRun.addBatch)
        // The dashboard closes while the first batch is being added.
        let token = run.queue.observe(\.operationCount, options: [.new]) { _, _ in run.stopAdding() }
        run.start()
        #expect(run.queue.allOperationCount == ScenarioRun.addBatch)
        // The summary counts the ones never added as unfinished.
        #expect(run.notAddedCount == 2 * ScenarioRun.addBatch)
        let summary = DashboardRunner.summary(run.monitor.snapshot().counts, notAdded: run.notAddedCount)
        let all = 3 * ScenarioRun.addBatch
        #expect(summary == "\(all) operations: 0 succeeded, 0 failed, 0 cancelled, \(all) unfinished")
        _ = token
        run.queue.cancelAllOperations()
        run.queue.isSuspended = false
    }
}
