/// The runs of one frame being collected: their cells one after another in one storage, and
/// where each run starts and ends in it. `runs()` hands them out as `CellRun`s slicing that
/// storage; the next frame reuses it (and its room) once the runs handed out are gone, and
/// copies it first while they are not, so runs already handed out never change.
struct FrameRuns {
    /// A run's position and its cells' range in `cells`.
    private struct Span {
        var x: Int
        var y: Int
        var range: Range<Int>
    }

    private var cells: [Cell] = []
    private var spans: [Span] = []

    /// Empties the runs, keeping their room.
    mutating func removeAll() {
        cells.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    /// Adds a run of `run` (cells of a buffer's storage) starting at (`x`, `y`).
    mutating func append(x: Int, y: Int, _ run: UnsafeBufferPointer<Cell>.SubSequence) {
        let start = cells.count
        cells.append(contentsOf: run)
        spans.append(Span(x: x, y: y, range: start..<cells.count))
    }

    /// The runs added since `removeAll()`, in order.
    func runs() -> [CellRun] {
        var runs: [CellRun] = []
        runs.reserveCapacity(spans.count)
        for span in spans { runs.append(CellRun(x: span.x, y: span.y, slice: cells[span.range])) }
        return runs
    }
}
