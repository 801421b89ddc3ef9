import OpsDashUI
import OpsMonitor
import Testing

/// Ctrl-L, the growing WHY column, the scrolling details pane and help, the event log's spare
/// height and merged repeats, the "enlarge" screen.
@Suite struct RepaintAndTooSmallTests {
    @Test func ctrlLAsksForARepaintFromAnyScreen() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.control("l")) == [.repaint])
        state.press(.character("?"))
        #expect(state.press(.control("l")) == [.repaint])
        #expect(state.showHelp, "Ctrl-L leaves the overlay open")
        var small = Fixtures.state(Fixtures.midRun(), width: 30, height: 8)
        #expect(small.press(.control("l")) == [.repaint])
    }

    @Test func keysAreNotActedOnWhileTheTerminalIsTooSmall() {
        var state = Fixtures.state(Fixtures.midRun(), width: 50, height: 10)
        let commands = state.press(
            .down, .character("c"), .character("C"), .character("y"), .character("p"),
            .character("+"), .character("d"), .enter, .character("f"), .character("s"), .character("?"))
        #expect(commands.isEmpty)
        #expect(state.selectedID == 1 && state.sort == .id && !state.showDependencies)
        #expect(!state.showDetails && !state.showHelp && !state.isEditingFilter && state.prompt == nil)
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func theEnlargeMessageFitsAnySize() {
        for (width, height) in [(59, 30), (30, 5), (20, 3), (10, 3), (5, 2), (5, 1)] {
            let lines = render(Fixtures.state(Fixtures.midRun(), width: width, height: height)).lines
            let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(text.contains("60×12"), "\(width)x\(height): \(lines)")
        }
        let tiny = render(Fixtures.state(Fixtures.midRun(), width: 10, height: 3)).lines
        #expect(tiny == ["enlarge to", "  60×12", ""])
        // Below five columns, what fits of it.
        #expect(render(Fixtures.state(Fixtures.midRun(), width: 3, height: 1)).lines == ["60×"])
    }
}
