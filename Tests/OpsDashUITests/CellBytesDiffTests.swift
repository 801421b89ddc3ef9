import Testing

@testable import OpsDashUI

/// The diff compares cells as their bytes (`Cell.equal(at:_:_:)`): a cell is all fields, no
/// padding, and a change to any one field of one cell is a run of that cell.
@Suite struct CellBytesDiffTests {
    @Test func aCellIsTwelveBytesOfFields() {
        #expect(Cell.isPacked)
    }

    @Test func everyFieldOfACellMakesARun() {
        for (field, after) in Self.changes {
            var old = CellBuffer(width: 6, height: 2)
            old[3, 1] = Self.before
            var new = old
            new[3, 1] = after
            #expect(diff(from: old, to: new) == [CellRun(x: 3, y: 1, cells: [after])], "\(field)")
            #expect(diff(from: new, to: new).isEmpty, "\(field)")
        }
    }

    @Test func aChangedFieldIsFoundAtEveryColumnOfRowsOfEveryWidth() {
        // Equal cells are passed over four at a time (`Cell.firstDifference`): a change to any
        // field of the cell in any column, so at every place of those four and in the cells
        // after the last whole four, is its run.
        for width in 1...13 {
            for x in 0..<width {
                for (field, after) in Self.changes {
                    var old = CellBuffer(width: width, height: 3)
                    for column in 0..<width { old[column, 1] = Self.before }
                    var new = old
                    new[x, 1] = after
                    #expect(
                        diff(from: old, to: new) == [CellRun(x: x, y: 1, cells: [after])],
                        "width \(width), column \(x), \(field)")
                }
            }
        }
    }

    private static let before = Cell("a")
    private static let changes: [(String, Cell)] = [
        ("character", Cell("b")),
        ("foreground", Cell("a", style: CellStyle(foreground: .red))),
        ("background", Cell("a", style: CellStyle(background: .blue))),
        ("bold", Cell("a", style: CellStyle(bold: true))),
        ("dim", Cell("a", style: CellStyle(dim: true))),
        ("reverse", Cell("a", style: CellStyle(reverse: true))),
        ("underline", Cell("a", style: CellStyle(underline: true))),
        ("width", Cell.wide("a", style: .plain)),
    ]
}
