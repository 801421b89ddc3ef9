/// A run of changed cells on one row, to be drawn left to right from (`x`, `y`).
public struct CellRun: Sendable, Equatable {
    /// Column of the first cell.
    public var x: Int
    /// Row of the run.
    public var y: Int
    /// The cells to draw, left to right.
    public var cells: [Cell]

    /// A run of `cells` starting at (`x`, `y`).
    public init(x: Int, y: Int, cells: [Cell]) {
        self.x = x
        self.y = y
        self.cells = cells
    }
}
