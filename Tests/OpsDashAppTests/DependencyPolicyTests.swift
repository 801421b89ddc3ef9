import Foundation
import OpsKit
import OpsKitTesting
import OpsScenarios
import Testing

@testable import OpsDashApp

/// `onDependencyFailure` in a scenario: "cancel" cancels what comes after a failed step, down
/// the chain; "run" (the default, Foundation's rule) runs it anyway.
@Suite(.ownThread) struct DependencyPolicyTests {
    @Test func cancelFollowsAFailureDownTheChainAndRunRunsAnyway() throws {
        let json = """
            {"name": "policy", "description": "d", "concurrency": 4, "seed": 1, "operations": [
              {"id": "fetch", "kind": "process", "duration": 1, "failure": {"message": "boom"}},
              {"id": "filter", "kind": "process", "duration": 1, "after": ["fetch"], "onDependencyFailure": "cancel"},
              {"id": "upload", "kind": "process", "duration": 1, "after": ["filter"], "onDependencyFailure": "cancel"},
              {"id": "report", "kind": "process", "duration": 1, "after": ["fetch"]},
              {"id": "audit", "kind": "process", "duration": 1, "after": ["fetch"], "onDependencyFailure": "run"}]}
            """
        let scenario = try ScenarioLoader.decode(data: Data(json.utf8), source: "policy")
        let clock = ManualClock()
        var made = ScenarioOperations(scenario, clock: clock)
        let operations = made.all()
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        queue.addOperations(operations, waitUntilFinished: false)
        #expect(clock.run(queue, step: .seconds(1)) { operations.allSatisfy(\.isFinished) })
        let outcomes = operations.map { ($0 as? AsyncOperation)?.outcome?.description ?? "?" }
        #expect(
            outcomes == [
                "failed: boom", "cancelled: dependency fetch did not succeed",
                "cancelled: dependency filter did not succeed", "succeeded", "succeeded",
            ])
    }
}
