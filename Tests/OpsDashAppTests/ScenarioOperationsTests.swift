import Foundation
import OpsKit
import OpsScenarios
import Testing

@testable import OpsDashApp

/// A scenario's operations are made batch by batch, so the first ones run while a large
/// scenario is still being made; dependencies are wired whichever way they point in the file.
@Suite struct ScenarioOperationsTests {
    static func scenario(_ entries: String) throws -> ResolvedScenario {
        let json = """
            {"name": "made", "description": "d", "concurrency": 2, "seed": 1, "operations": [\(entries)]}
            """
        return try ScenarioLoader.decode(data: Data(json.utf8), source: "made")
    }

    @Test func aBatchMakesOnlyItsOwnOperations() throws {
        let scenario = try Self.scenario(
            #"{"id": "step-{i}", "kind": "process", "repeat": 1000, "duration": 1}"#)
        var operations = ScenarioOperations(scenario, clock: ManualClock())
        #expect(operations.count == 1000)
        #expect(operations.madeCount == 0)
        let first = operations.batch(0..<10)
        #expect(first.map(\.name) == (1...10).map { "step-\($0)" })
        #expect(operations.madeCount == 10)
        _ = operations.batch(10..<1000)
        #expect(operations.madeCount == 1000)
    }

    @Test func aDependencyLaterInTheFileIsMadeEarlyAndWiredInItsOwnBatch() throws {
        let scenario = try Self.scenario(
            """
            {"id": "report", "kind": "process", "duration": 1, "after": ["upload"]},
            {"id": "fetch", "kind": "process", "duration": 1},
            {"id": "upload", "kind": "process", "duration": 1, "after": ["fetch"]}
            """)
        var operations = ScenarioOperations(scenario, clock: ManualClock())
        let first = operations.batch(0..<1)
        // `upload` is made for `report` (and not added yet); its own dependency waits for its batch.
        #expect(operations.madeCount == 2)
        let report = try #require(first.first)
        let upload = try #require(report.dependencies.first)
        #expect(report.dependencies.count == 1)
        #expect(upload.name == "upload")
        #expect(upload.dependencies.isEmpty)
        let rest = operations.batch(1..<3)
        #expect(rest.map(\.name) == ["fetch", "upload"])
        // The same `upload` object, now wired to `fetch`; nothing is made twice.
        #expect(rest[1] === upload)
        #expect(upload.dependencies.map(\.name) == ["fetch"])
        #expect(operations.madeCount == 3)
    }
}
