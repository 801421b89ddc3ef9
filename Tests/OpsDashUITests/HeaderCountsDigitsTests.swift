import OpsMonitor
import Testing

@testable import OpsDashUI

/// The header's counts line is drawn as words and digits straight into the cells: each cell must
/// be what writing its spans ("waiting ", the count in its state's style, two spaces, …, the
/// total, the evicted count) draws, whatever the numbers' widths.
@Suite struct HeaderCountsDigitsTests {
    /// The counts line as spans, as the header built it before drawing digits.
    static func spans(_ counts: StateCounts, evicted: Int) -> [Span] {
        var spans: [Span] = []
        for displayState in DisplayState.counted {
            let count = displayState.count(in: counts)
            if !spans.isEmpty { spans.append(Span("  ")) }
            spans.append(Span(displayState.word + " ", Theme.label))
            spans.append(Span("\(count)", count == 0 ? .plain : displayState.style))
        }
        spans.append(Span("  total ", Theme.label))
        spans.append(Span("\(counts.total)", Theme.title))
        if evicted > 0 {
            spans.append(Span("  evicted ", Theme.label))
            spans.append(Span("\(evicted)"))
        }
        return spans
    }

    static let cases: [(StateCounts, Int)] = [
        (StateCounts(), 0),
        (StateCounts(waiting: 3, ready: 2, executing: 10, succeeded: 9, failed: 1, cancelled: 0), 0),
        (StateCounts(waiting: 0, ready: 1_999, executing: 10, succeeded: 123_456, failed: 7, cancelled: 10), 250),
        (StateCounts(waiting: 9, ready: 99, executing: 999, succeeded: 9_999, failed: 100_000, cancelled: 1), 1),
        // A peer's picture may say anything.
        (StateCounts(waiting: -4, ready: 0, executing: -1_000, succeeded: 0, failed: 0, cancelled: 0), 0),
    ]

    @Test(arguments: 0..<cases.count) func theCountsLineIsItsSpans(index: Int) {
        let (counts, evicted) = Self.cases[index]
        var view = HeaderView()
        view.counts = counts
        view.evictedCount = evicted
        let width = 150
        var drawn = CellBuffer(width: width, height: 3)
        view.render(into: &drawn, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
        var expected = CellBuffer(width: width, height: 3)
        expected.draw(in: Rect(x: 0, y: 0, width: width, height: 3)) { canvas in
            canvas.write(Self.spans(counts, evicted: evicted), x: 0, y: 1, maxWidth: width)
        }
        let row = (width)..<(2 * width)
        #expect(drawn.lines[1] == expected.lines[1])
        #expect(Array(drawn.cells[row]) == Array(expected.cells[row]))
    }

    /// The long labels show while the line fits exactly; one column less, the short ones.
    @Test func theLongLineShowsWhileItFits() {
        var view = HeaderView()
        view.counts = StateCounts(waiting: 3, ready: 12, executing: 10, succeeded: 1_234, failed: 1, cancelled: 0)
        view.evictedCount = 5
        let full = Self.spans(view.counts, evicted: 5).reduce(0) { $0 + $1.width }
        for width in [full, full - 1] {
            var drawn = CellBuffer(width: width, height: 3)
            view.render(into: &drawn, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
            let line = drawn.lines[1]
            #expect(line.hasPrefix("waiting 3  ready 12") == (width == full), "\(width): \(line)")
            #expect(line.hasPrefix("wait 3 rdy 12") == (width < full), "\(width): \(line)")
        }
    }

    /// The progress line's percentage is drawn as digits: " 45%" right-aligned in four columns
    /// after a space, in the live style, as `Format.percent` and `Format.fit` make it.
    @Test(arguments: [0, 1, 45_600, 99_999, 100_000, 2_000_000])
    func theProgressPercentageIsItsText(completed: Int64) {
        var view = HeaderView()
        view.completedBytes = completed
        view.totalBytes = 100_000
        view.bytesPerSecond = 1_000
        let width = 100
        var drawn = CellBuffer(width: width, height: 3)
        view.render(into: &drawn, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
        let text = " " + Format.fit(Format.percent(Double(completed) / 100_000), 4, right: true)
        let line = drawn.lines[2]
        let bytes = Format.bytes(completed, of: 100_000)
        #expect(line.contains(text + "  " + bytes + "  "), "\(line)")
        let cells = drawn.cells[(2 * width)..<(3 * width)]
        guard let end = cells.firstIndex(where: { $0 == Cell("%", style: Theme.live) }) else {
            Issue.record("no % in \(line)")
            return
        }
        #expect(cells[(end - 4)...end].allSatisfy { $0.style == Theme.live })
    }

    @Test func digitsAreAsWideAsTheNumberWritten() {
        for value in [0, 7, 9, 10, 99, 100, 12_345, -1, -10, -99_999, Int.max, Int.min] {
            #expect(Digits.count(value) == "\(value)".count, "\(value)")
        }
    }
}
