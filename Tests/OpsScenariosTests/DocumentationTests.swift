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

    /// Every kind of JSON problem the loader reports is listed in docs/SCENARIOS.md: the reason
    /// up to its first quoted part, and each explanation of a malformed number.
    @Test func everyJSONProblemIsDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/SCENARIOS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let messages = (ErrorMessageTests.strictCases.map(\.1) + ErrorMessageTests.byteCases.map(\.1))
            .filter { $0.hasPrefix("not valid JSON") }
        #expect(messages.count > 30)
        for message in messages {
            let reason = message.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? message
            let head = reason.prefix { !"'\"(".contains($0) }
            let mentionsHead = text.contains(head)
            #expect(mentionsHead, "docs/SCENARIOS.md does not mention \(head)")
            if reason.hasPrefix("malformed number"), let open = reason.lastIndex(of: "(") {
                let mentionsWhy = text.contains(reason[open...])
                #expect(mentionsWhy, "docs/SCENARIOS.md does not mention \(reason[open...])")
            }
        }
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
