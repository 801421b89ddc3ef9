/// Turns successive dashboard states into what the terminal must draw: renders each state into
/// a reused buffer and diffs it against the frame on screen. Not thread-safe: use it from the
/// run loop's thread.
public final class FrameRenderer {
    /// The frame the terminal shows (after the last `frame(for:)`).
    public private(set) var front = CellBuffer(width: 0, height: 0)
    private let custom: ((DashboardState) -> CellBuffer)?

    /// A renderer with nothing on screen yet, drawing with `render` (the dashboard's own
    /// renderer when nil; tests pass their own).
    public init(render: ((DashboardState) -> CellBuffer)? = nil) {
        custom = render
    }

    /// The runs that turn the screen into `state`'s frame; empty when nothing changed.
    public func frame(for state: DashboardState) -> [CellRun] {
        let back = custom.map { $0(state) } ?? render(state)
        let runs = diff(from: front, to: back)
        front = back
        return runs
    }

    /// Forgets what is on screen, so the next frame repaints every cell (Ctrl-L, a terminal
    /// that was cleared behind the dashboard's back).
    public func invalidate() {
        front = CellBuffer(width: 0, height: 0)
    }
}
