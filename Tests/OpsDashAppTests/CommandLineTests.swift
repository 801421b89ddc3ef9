import OpsDashUI
import Testing

@testable import OpsDashApp

@Suite struct CommandLineTests {
    @Test func helpListsEveryKeyOfTheHelpOverlayAndPointsAtTheScenarioList() {
        let help = OpsdashCommand.helpMessage(columns: 100)
        // The help text wraps long lines: compare with runs of white space as one space.
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let flowing = words(help)
        #expect(!KeyReference.entries.isEmpty)
        for entry in KeyReference.entries {
            #expect(flowing.contains(words(entry.key)), "key \(entry.key)")
            #expect(flowing.contains(words(entry.meaning)), "meaning \(entry.meaning)")
        }
        #expect(help.contains("opsdash --list-scenarios"))
        #expect(help.contains("--version"))
    }

    @Test func versionPrintsTheOneVersionString() throws {
        do {
            _ = try OpsdashCommand.parse(["--version"])
            Issue.record("--version parsed as a run")
        } catch {
            #expect(OpsdashCommand.exitCode(for: error) == .success)
            #expect(OpsdashCommand.fullMessage(for: error) == OpsdashVersion.current)
        }
        #expect(OpsdashVersion.current.split(separator: ".").count == 3)
    }
}
