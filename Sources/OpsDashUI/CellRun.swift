/// A run of changed cells on one row, to be drawn left to right from (`x`, `y`).
public struct CellRun: Sendable, Equatable {
    /// Column of the first cell.
    public var x: Int
    /// Row of the run.
    public var y: Int
    /// The cells to draw, left to right (a copy of `slice`, made when read).
    public var cells: [Cell] {
        get { Array(slice) }
        set { slice = newValue[...] }
    }
    /// The cells to draw, as a part of the frame's shared storage: index from
    /// `slice.startIndex`, not from 0. The runs of one frame share one storage (`FrameRuns`), so
    /// a frame's few dozen runs are one buffer, not one allocation each.
    package var slice: ArraySlice<Cell>

    /// A run of `cells` starting at (`x`, `y`).
    public init(x: Int, y: Int, cells: [Cell]) {
        self.init(x: x, y: y, slice: cells[...])
    }

    /// A run of `slice`, a part of a frame's shared cells, starting at (`x`, `y`).
    init(x: Int, y: Int, slice: ArraySlice<Cell>) {
        self.x = x
        self.y = y
        self.slice = slice
    }
}
