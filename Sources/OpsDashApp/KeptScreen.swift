import OpsDashTerminal
import OpsDashUI

/// The fleet list's open screen lent to a dashboard: everything goes to the screen but
/// `close`, so the list can draw on it again when the dashboard ends (no flicker of the
/// terminal leaving and entering full-screen mode).
final class KeptScreen: TerminalScreen {
    let screen: NcursesScreen

    init(_ screen: NcursesScreen) {
        self.screen = screen
    }

    var size: TerminalSize { screen.size }
    var glyphs: GlyphSet { screen.glyphs }
    func draw(_ runs: [CellRun]) { screen.draw(runs) }
    func readInput(timeoutMilliseconds: Int) -> TerminalInput? {
        screen.readInput(timeoutMilliseconds: timeoutMilliseconds)
    }
    /// Leaves the screen open: its owner closes it.
    func close() {}
    func clearOnNextDraw() { screen.clearOnNextDraw() }
}
