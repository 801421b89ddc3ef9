import Testing

@testable import OpsDashUI

/// Attached read-only, the dashboard doesn't offer the keys that control the queue: the footer
/// leaves them out and the help marks them.
@Suite struct ReadOnlyKeysTests {
    static func readOnlyState(width: Int = 80, height: Int = 24) -> DashboardState {
        var state = Fixtures.state(Fixtures.midRun(), width: width, height: height)
        let status = SourceStatus(
            label: "AppExample/images[42]", detail: "connected (read-only)", link: .connected, brief: "read-only",
            acceptsCommands: false, isReadOnly: true)
        _ = reduce(&state, .source(status))
        return state
    }

    @Test func footerLeavesOutTheControlKeys() {
        let buffer = render(Self.readOnlyState(width: 120, height: 20))
        expectFrame(buffer, named: "read-only-120x20")
        let footer = buffer.line(19)
        for hint in ["c cancel", "C all", "p pause", "+/- limit"] {
            #expect(!footer.contains(hint), "\(footer)")
        }
        #expect(footer.contains("d deps"))
    }

    @Test func helpMarksTheControlKeysReadOnly() {
        var state = Self.readOnlyState(width: 100, height: 30)
        state.press(.character("?"))
        expectFrame(render(state), named: "help-read-only-100x30")
        let entries = HelpOverlay(state).entries
        let marked = entries.filter { $0.meaning.hasPrefix(HelpOverlay.readOnlyMark) }.map(\.key)
        #expect(marked == ["c", "C", "X", "x", "p  space", "+ =  - _"])
    }

    @Test func withControlNothingIsMarked() {
        let state = Fixtures.state(Fixtures.midRun(), width: 120, height: 20)
        #expect(!HelpOverlay(state).entries.contains { $0.meaning.hasPrefix(HelpOverlay.readOnlyMark) })
        #expect(render(state).line(19).contains("c cancel"))
    }
}
