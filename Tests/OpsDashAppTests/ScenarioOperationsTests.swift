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

    /// The queue and the monitor always know an operation's dependencies when it is added (its
    /// `added` event lists them): one from later in the file comes first, in the same batch.
    @Test func aDependencyLaterInTheFileIsHandedOutBeforeItsDependent() throws {
        let scenario = try Self.scenario(
            """
            {"id": "report", "kind": "process", "duration": 1, "after": ["upload"]},
            {"id": "fetch", "kind": "process", "duration": 1},
            {"id": "upload", "kind": "process", "duration": 1, "after": ["fetch"]},
            {"id": "audit", "kind": "process", "duration": 1, "after": ["report", "fetch"]}
            """)
        var operations = ScenarioOperations(scenario, clock: ManualClock())
        let first = operations.batch(0..<1)
        #expect(first.map(\.name) == ["fetch", "upload", "report"])
        #expect(first[1].dependencies.map(\.name) == ["fetch"])
        #expect(first[2].dependencies.map(\.name) == ["upload"])
        #expect(operations.madeCount == 3)
        // Nothing is handed out twice.
        let rest = operations.batch(1..<4)
        #expect(rest.map(\.name) == ["audit"])
        #expect(rest[0].dependencies.map(\.name) == ["report", "fetch"])
        #expect(rest[0].dependencies[1] === first[0])
    }

    /// A chain pointing forward, each entry after the next one, comes out last entry first.
    @Test func aLongForwardChainComesOutDependenciesFirst() throws {
        let length = 20_000
        let entries = (1...length).map { index in
            let after = index < length ? #", "after": ["s\#(index + 1)"]"# : ""
            return #"{"id": "s\#(index)", "kind": "process", "duration": 1\#(after)}"#
        }
        let scenario = try Self.scenario(entries.joined(separator: ",\n"))
        var operations = ScenarioOperations(scenario, clock: ManualClock())
        let first = operations.batch(0..<1)
        #expect(first.count == length)
        #expect(first.first?.name == "s\(length)")
        #expect(first.last?.name == "s1")
        #expect(first.last?.dependencies.first === first.dropLast().last)
        #expect(operations.batch(1..<length).isEmpty)
    }
}
