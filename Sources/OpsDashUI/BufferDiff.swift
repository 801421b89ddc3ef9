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

/// What to draw to turn `previous` into `next`: runs of consecutive changed cells.
///
/// A size change (or an empty `previous`) repaints everything. Identical buffers give no runs,
/// so an unchanged frame draws nothing.
public func diff(from previous: CellBuffer, to next: CellBuffer) -> [CellRun] {
    let full = previous.width != next.width || previous.height != next.height
    var runs: [CellRun] = []
    for y in 0..<next.height {
        var x = 0
        while x < next.width {
            let index = y * next.width + x
            if !full && previous.cells[index] == next.cells[index] {
                x += 1
                continue
            }
            let start = x
            var cells: [Cell] = []
            while x < next.width {
                let i = y * next.width + x
                if !full && previous.cells[i] == next.cells[i] { break }
                cells.append(next.cells[i])
                x += 1
            }
            runs.append(CellRun(x: start, y: y, cells: cells))
        }
    }
    return runs
}
