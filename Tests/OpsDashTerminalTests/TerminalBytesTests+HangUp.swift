import OpsDashLoop
import OpsDashUI
import Testing

@testable import OpsDashTerminal

/// A terminal that goes away without a signal (its other side closed) ends the dashboard.
/// In `TerminalBytesTests`' serialized suite: curses has one current screen per process.
extension TerminalBytesTests {
    @Test func readingAClosedTerminalSaysClosedInsteadOfTimingOut() throws {
        let terminal = try PseudoTerminal(width: 80, height: 24)
        let screen = try NcursesScreen(attachedTo: try terminal.openTerminal(), term: "xterm-256color")
        defer { screen.close() }
        #expect(screen.readInput(timeoutMilliseconds: 0) == nil)  // alive: nothing typed yet
        terminal.hangUp()
        // A 60 s wait: were the hang-up not seen, the test would hang here rather than pass.
        #expect(screen.readInput(timeoutMilliseconds: 60_000) == .closed)
    }

    @Test func theDashboardLoopEndsWhenItsTerminalCloses() throws {
        let terminal = try PseudoTerminal(width: 80, height: 24)
        let screen = try NcursesScreen(attachedTo: try terminal.openTerminal(), term: "xterm-256color")
        var frames = 0
        let exit = runDashboard(
            screen: screen, fps: 20, initial: DashboardState(width: 80, height: 24, glyphs: screen.glyphs),
            inbox: LoopInbox(),
            refresh: { _ in
                frames += 1
                if frames == 3 { terminal.hangUp() }
                return false
            },
            perform: { _ in })
        #expect(exit == .terminalClosed)
        #expect(frames == 3)  // the next wait for input saw it: no further frame
    }
}
