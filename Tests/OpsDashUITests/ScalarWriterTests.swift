import Testing

@testable import OpsDashUI

/// `writeScalars` stores what `write` stores for the same narrow text: the same cells, clipped
/// to the same columns, and a wide character it cuts in half at either end blanked the same way.
@Suite struct ScalarWriterTests {
    /// A row of wide characters under the text, so that every start and end cuts one.
    static func background(width: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: 3)
        buffer.write("漢字漢字漢字漢字漢字漢字漢字漢字", x: 0, y: 1, style: CellStyle(foreground: .red), maxWidth: width)
        buffer.write("ab漢字cd漢字", x: 1, y: 2, style: .plain, maxWidth: width)
        return buffer
    }

    @Test func storesWhatWriteStores() {
        let width = 20
        let text = "#12 fetch-7: ready → running"
        let style = CellStyle(foreground: .green, bold: true)
        for y in [-1, 1, 2, 3] {
            for x in -2...width {
                for (lower, limit) in [(0, width), (3, 11), (x, x + 4), (5, 5), (-3, 40)] {
                    var expected = Self.background(width: width)
                    let expectedEnd = expected.write(text, x: x, y: y, style: style, from: lower, to: limit)
                    var drawn = Self.background(width: width)
                    let end = drawn.writeScalars(x: x, y: y, from: lower, to: limit) { line in
                        line.put(ascii: "#", style: style)
                        line.put(digits: 12, style: style)
                        line.put(" ", style: style)
                        line.put(printableASCII: "fetch-", style: style)
                        line.put(digits: 7, style: style)
                        line.put(ascii: ": ready ", style: style)
                        line.put("→", style: style)
                        line.put(printableASCII: " running", style: style)
                    }
                    #expect(drawn.cells == expected.cells, "y \(y), x \(x), \(lower)..<\(limit)")
                    // `write` stops counting where it stops storing; the writer counts on.
                    #expect(end == x + text.unicodeScalars.count)
                    #expect(expectedEnd <= end)
                }
            }
        }
    }

    @Test func digitsAreTheNumberWritten() {
        for value in [0, 7, 10, 99, 12_345, -1, -10, -99_999, Int.max, Int.min] {
            var buffer = CellBuffer(width: 30, height: 1)
            let end = buffer.writeScalars(x: 2, y: 0, from: 0, to: 30) { $0.put(digits: value, style: .plain) }
            #expect(buffer.lines[0] == "  \(value)")
            #expect(end == 2 + "\(value)".count)
        }
    }
}
