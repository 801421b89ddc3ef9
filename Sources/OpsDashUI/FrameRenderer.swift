import OpsMonitor

/// Turns successive dashboard states into what the terminal must draw, doing only the work a
/// change needs: table and log rows whose inputs didn't change are copied from the last frame
/// they were drawn in instead of being formatted again, rows that are exactly what the screen
/// already shows are not compared again, and the two frame buffers are reused.
///
/// Each frame is drawn as `render(_:)` draws it: the layout gives every region its `Rect`,
/// each widget takes from the state what it shows there, then draws it inside its `Rect`.
///
/// Not thread-safe: use it from the run loop's thread. Its properties, as `RenderCache`'s, are
/// not checked for overlapping access at run time (none overlaps).
public final class FrameRenderer {
    /// The frame the terminal shows (after the last `frame(for:)`).
    @exclusivity(unchecked) public private(set) var front = CellBuffer(width: 0, height: 0)
    private let custom: ((DashboardState) -> CellBuffer)?
    private let cache = RenderCache()
    /// The runs of the last frame, their storage reused by the next.
    @exclusivity(unchecked) private var runs = FrameRuns()

    /// A renderer with nothing on screen yet, drawing with `render` (the dashboard's own
    /// renderer, with row reuse, when nil; tests pass their own).
    public init(render: ((DashboardState) -> CellBuffer)? = nil) {
        custom = render
    }

    /// The runs that turn the screen into `state`'s frame; empty when nothing changed.
    public func frame(for state: DashboardState) -> [CellRun] {
        if let custom {
            let next = custom(state)
            let runs = diff(from: front, to: next)
            front = next
            return runs
        }
        // Drawn over the frame on screen: the rows not drawn again are as they were, and the
        // rows drawn again are compared with what they showed (`before`).
        let inPlace = cache.beginFrame(inPlace: front, width: state.width, height: state.height)
        render(state, into: &front, cache: cache)
        // The runs' cells go into one storage, kept from frame to frame (a busy frame makes a
        // few dozen runs: an allocation each, and a release each, before).
        runs.removeAll()
        for y in 0..<front.height where !inPlace || cache.isTouched(row: y) && !cache.isUnchanged(row: y) {
            appendRuns(row: y, from: cache.before, to: front, full: !inPlace, into: &runs)
        }
        cache.endFrame()
        return runs.runs()
    }

    /// Forgets what is on screen, so the next frame repaints every cell (Ctrl-L, a terminal
    /// that was cleared behind the dashboard's back).
    public func invalidate() {
        front = CellBuffer(width: 0, height: 0)
        cache.clear()
    }
}
