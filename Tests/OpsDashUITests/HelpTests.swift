import OpsDashUI
import OpsMonitor
import Testing

@Suite struct HelpTests {
    @Test func helpExplainsColumnsGlyphsAndTheLimitNotation() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 60)
        state.press(.character("?"))
        let text = render(state).lines.joined(separator: "\n")
        for needle in [
            "RT", "AFTER", "TIME", "WHY", "retries used", "↓ ↑ ⚙ ·", "download, upload",
            "running 3/1", "limit", "Ctrl-L",
        ] {
            #expect(text.contains(needle), "help lacks \(needle)")
        }
    }

    @Test func helpScrollsOnASmallTerminal() {
        var state = Fixtures.state(Fixtures.midRun(), width: 60, height: 12)
        state.press(.character("?"))
        let first = render(state).lines
        #expect(first.contains { $0.contains("scroll") })
        expectFrame(render(state), named: "help-small-60x12")
        state.press(.end)
        let last = render(state).lines.joined(separator: "\n")
        #expect(last.contains("no concurrency limit"))
        #expect(state.selectedID == 1, "keys scroll the help, not the table")
        state.press(.home)
        #expect(state.helpScroll == 0)
        state.press(.escape)
        #expect(!state.showHelp)
    }
}
