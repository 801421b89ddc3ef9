import Testing

@testable import OpsDashUI

/// A filled rectangle has its edge cells stored one at a time (either may cut a wide
/// character) and its inside filled once and copied row to row: the cells are those that
/// storing the cell in each place in turn gives, for any rectangle over rows of wide and narrow
/// characters.
@Suite struct FillRectTests {
    /// Rows of wide characters with narrow ones between, each shifted a column.
    private func rows() -> CellBuffer {
        var buffer = CellBuffer(width: 10, height: 4)
        for y in 0..<4 { buffer.write("漢字a漢b字", x: y % 2, y: y) }
        return buffer
    }

    @Test func isWhatStoringEachCellGives() {
        let cell = Cell("-", style: CellStyle(foreground: .cyan))
        for x in -2...10 {
            for y in -1...4 {
                for width in 0...12 {
                    for height in 0...5 {
                        var filled = rows()
                        filled.fill(x: x, y: y, width: width, height: height, with: cell)
                        var stored = rows()
                        for row in max(0, y)..<max(max(0, y), min(4, y + height)) {
                            for column in max(0, x)..<max(max(0, x), min(10, x + width)) { stored[column, row] = cell }
                        }
                        #expect(filled == stored, "\(width)×\(height) at (\(x), \(y))")
                    }
                }
            }
        }
    }
}
