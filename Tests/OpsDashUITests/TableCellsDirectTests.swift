import OpsMonitor
import Testing

@testable import OpsDashUI

/// A table cell of printable ASCII that fits is written straight into the cells, padded where
/// it stands: cell for cell what writing `Format.fit`'s padded text draws, whatever the names
/// (long, CJK, control characters), column widths, glyphs and hostile counts.
@Suite struct TableCellsDirectTests {
    static func snapshot() -> QueueSnapshot {
        var operations = Fixtures.midRun().operations.map { $0 }
        let names = [
            "a-name-long-enough-to-be-cut-in-the-middle-of-its-run-7.bin", "日本語のファイル.txt", "tab\there",
            "", "x",
        ]
        for (index, name) in names.enumerated() {
            operations.append(
                OperationSnapshot(
                    id: 100 + index, name: name, kind: .upload, lifecycle: .executing, completedUnits: 5,
                    totalUnits: index == 3 ? .min : 9_000_000_000, unitsPerSecond: 123_456.7, retries: index,
                    addedAt: .zero, startedAt: .seconds(1)))
        }
        return Fixtures.snapshot(operations)
    }

    @Test func isWhatFitTextDraws() {
        var checked = 0
        for glyphs in [GlyphSet.unicode, .ascii] {
            for width in [200, 120, 80, 60, 40] {
                let state = Fixtures.state(Self.snapshot(), width: width, height: 40, glyphs: glyphs)
                var direct = TableView(state, rows: 20)
                var fitted = direct
                direct.writesCellsDirectly = true
                fitted.writesCellsDirectly = false
                let area = Rect(x: 0, y: 0, width: width, height: 21)
                var drawnDirectly = CellBuffer(width: width, height: 21)
                direct.render(into: &drawnDirectly, area: area)
                var drawnFitted = CellBuffer(width: width, height: 21)
                fitted.render(into: &drawnFitted, area: area)
                #expect(drawnDirectly.cells == drawnFitted.cells, "\(width), \(glyphs)")
                #expect(direct.rows.count > 8)
                checked += 1
            }
        }
        #expect(checked == 10)
    }
}
