import Foundation
import OpsScenarios
import Testing

/// The example in docs/SCENARIOS.md is a valid scenario.
struct DocumentationTests {
    @Test func exampleInDocsLoads() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/SCENARIOS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "### Example"))
        let afterHeading = text[section.upperBound...]
        let open = try #require(afterHeading.range(of: "```json\n"))
        let close = try #require(afterHeading[open.upperBound...].range(of: "```"))
        let json = String(afterHeading[open.upperBound..<close.lowerBound])
        let scenario = try ScenarioLoader.decode(data: Data(json.utf8), source: "SCENARIOS.md")
        #expect(scenario.operations.count == 23)
        #expect(scenario.operations.last?.dependencies == ["report"])
    }

    @Test func millionOperationsAreAccepted() throws {
        let text = Fixture.scenario(#"{"id": "n-{i}", "kind": "process", "repeat": 1000000, "duration": 1}"#)
        let clock = ContinuousClock()
        let start = clock.now
        let scenario = try Fixture.decode(text)
        #expect(scenario.operations.count == 1_000_000)
        print("1M ops resolved in \(clock.now - start)")
    }
}
