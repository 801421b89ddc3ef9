import OpsDashUI
import OpsMonitor
import Testing

@Suite struct UntrustedTextTests {
    @Test func controlCharactersInNamesAndLogsAreShownAsQuestionMarks() {
        let operation = OperationSnapshot(id: 1, name: "evil\nname\u{1B}[2J", message: "a\tb")
        let log = [LogEntry(time: .zero, kind: .state, operationID: 1, text: "line\nbreak")]
        var state = Fixtures.state(Fixtures.snapshot([operation], log: log), height: 40)
        state.press(.enter)
        let lines = render(state).lines
        #expect(lines[4].contains("evil?name?[2J"))
        #expect(lines.contains { $0.contains("line?break") })
        #expect(lines.contains { $0.contains(" name       evil?name?[2J") })
        let cells = render(state).cells.map(\.character)
        #expect(!cells.contains("\n") && !cells.contains("\u{1B}"))
    }
}
