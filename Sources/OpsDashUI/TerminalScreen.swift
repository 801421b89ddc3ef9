/// What the run loop needs from a screen; ncurses implements it, tests fake it. Use from one
/// thread only.
public protocol TerminalScreen: AnyObject {
    /// The current size in cells.
    var size: TerminalSize { get }
    /// The glyphs this terminal's locale can show.
    var glyphs: GlyphSet { get }
    /// Draws the runs and flushes once; draws and flushes nothing when `runs` is empty.
    func draw(_ runs: [CellRun])
    /// Waits up to `timeoutMilliseconds` for a key or resize; nil on timeout, `.closed` once
    /// the terminal is gone.
    func readInput(timeoutMilliseconds: Int) -> TerminalInput?
    /// Gives the terminal back as it was; safe to call more than once.
    func close()
    /// Makes the next `draw` clear the terminal and paint every cell (Ctrl-L).
    func clearOnNextDraw()
}

extension TerminalScreen {
    /// Screens that keep no picture of their own have nothing to clear.
    public func clearOnNextDraw() {}
}
