/// A run of changed cells on one row, to be drawn left to right from (`x`, `y`).
///
/// The runs of one frame share one storage (`cells` is a slice of it, indexed from its
/// `startIndex`, not from 0): a frame's few dozen runs are one buffer, not one allocation each.
public struct CellRun: Sendable, Equatable {
    /// Column of the first cell.
    public var x: Int
    /// Row of the run.
    public var y: Int
    /// The cells to draw, left to right (a slice: index from `cells.startIndex`).
    public var cells: ArraySlice<Cell>

    /// A run of `cells` starting at (`x`, `y`).
    public init(x: Int, y: Int, cells: [Cell]) {
        self.init(x: x, y: y, slice: cells[...])
    }

    /// A run of `slice`, a part of a frame's shared cells, starting at (`x`, `y`).
    init(x: Int, y: Int, slice: ArraySlice<Cell>) {
        self.x = x
        self.y = y
        self.cells = slice
    }
}
