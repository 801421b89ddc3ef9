import OpsKit
import OpsMonitor
import Testing

@testable import OpsDashUI

/// The header's progress line and sparklines are drawn as words, digits and glyphs straight into
/// the cells: each cell must be what writing them as spans of `Format`'s strings draws (as the
/// header did before), whatever the figures, widths and history; and a header drawn through a
/// render cache, frame after frame, must be the header drawn afresh.
@Suite struct HeaderProgressLineTests {
    /// The progress line as spans, as the header built it before drawing digits.
    static func expectedProgressLine(_ view: HeaderView, width: Int) -> CellBuffer {
        let fraction: Double
        if view.totalBytes > 0 {
            fraction = Double(view.completedBytes) / Double(view.totalBytes)
        } else if view.counts.total > 0 {
            fraction = Double(view.counts.finished) / Double(view.counts.total)
        } else {
            fraction = 0
        }
        var spans: [Span] = []
        if view.totalBytes > 0 {
            spans.append(Span("  "))
            spans.append(Span(Format.bytes(view.completedBytes, of: view.totalBytes)))
        }
        spans.append(Span("  "))
        let cyan = CellStyle(foreground: .cyan)
        if view.isDrained {
            spans.append(Span("avg ", Theme.label))
            spans.append(Span(Format.rate(view.averageBytesPerSecond, showingZero: true), cyan))
        } else {
            spans.append(Span(Format.rate(view.bytesPerSecond, showingZero: true), cyan))
        }
        let (remaining, overflow) = view.totalBytes.subtractingReportingOverflow(view.completedBytes)
        let eta = overflow ? "" : Format.eta(remaining: remaining, bytesPerSecond: view.bytesPerSecond)
        if !eta.isEmpty && !view.isDrained {
            spans.append(Span("  ETA ", Theme.label))
            spans.append(Span(eta))
        }
        let spansWidth = 5 + spans.reduce(0) { $0 + $1.width }
        let room = width - spansWidth - 9 - HeaderView.sparklineMinimumBar
        let count = min(view.recentFinished.count, room - 7)
        var sparklineWidth = 0
        if count >= 8 {
            spans.append(Span("  done ", Theme.label))
            let values = view.recentFinished.suffix(count)
            let failed = Array(view.recentFailed.suffix(count))
            let peak = max(1, values.max() ?? 1)
            for (index, value) in values.enumerated() {
                let style = failed[index] > 0 ? DisplayState.failed.style : Theme.sparkline
                spans.append(Span(String(Sparkline.glyph(value, peak: peak, glyphs: view.glyphs)), style))
            }
            sparklineWidth = 7 + count
        }
        let textWidth = spansWidth + sparklineWidth
        let barWidth = width - textWidth - 9
        var buffer = CellBuffer(width: width, height: 3)
        buffer.draw(in: Rect(x: 0, y: 0, width: width, height: 3)) { canvas in
            canvas.write("progress ", x: 0, y: 2, style: Theme.label)
            ProgressBar(fraction: fraction, style: Theme.live)
                .render(into: &canvas, x: 9, y: 2, width: barWidth, glyphs: view.glyphs)
            let textX = 9 + max(0, barWidth)
            let percent = " " + Format.fit(Format.percent(fraction), 4, right: true)
            canvas.write(percent, x: textX, y: 2, style: Theme.live)
            canvas.write(spans, x: textX + 5, y: 2, maxWidth: textWidth - 5)
        }
        return buffer
    }

    /// A header with bytes `completed` of `total` moving at `rate`, and a history of `seconds`.
    static func view(
        completed: Int64, total: Int64, rate: Double, average: Double = 0, drained: Bool = false, seconds: Int = 0,
        glyphs: GlyphSet = .unicode
    ) -> HeaderView {
        var view = HeaderView()
        view.glyphs = glyphs
        view.completedBytes = completed
        view.totalBytes = total
        view.bytesPerSecond = rate
        view.averageBytesPerSecond = average
        view.isDrained = drained
        view.counts = StateCounts(waiting: 2, ready: 1, executing: 3, succeeded: 7, failed: 1, cancelled: 0)
        view.recentFinished = (0..<seconds).map { Int64(($0 * 7) % 11) }
        view.recentFailed = (0..<seconds).map { $0 % 5 == 3 ? 1 : 0 }
        view.recentRunning = (0..<seconds).map { Int64(($0 * 3) % 8) }
        return view
    }

    static let views: [HeaderView] = [
        view(completed: 0, total: 0, rate: 0),
        view(completed: 0, total: 0, rate: 0, seconds: 30),
        view(completed: 512, total: 999, rate: 12.4, seconds: 12),
        view(completed: 999_949, total: 999_950, rate: 999_949.6, seconds: 30),
        view(completed: 12_345_678, total: 45_600_000, rate: 1_234_567.8, seconds: 30),
        view(completed: 45_600_000, total: 45_600_000, rate: 0, average: 2_000_000, drained: true, seconds: 30),
        view(completed: 3_000_000_000, total: 7_000_000_000_000, rate: 0.4, seconds: 9, glyphs: .ascii),
        view(completed: 1, total: 9_000_000_000_000_000_000, rate: 1e18, seconds: 30),
        view(completed: 10, total: 100, rate: 0.001, seconds: 30),  // an ETA of days
        view(completed: 5, total: 100, rate: 1e-9),  // past 1e9 s: no ETA
        // A peer's picture may say anything.
        view(completed: -5, total: 100, rate: -3, seconds: 30),
        view(completed: .min, total: .max, rate: .infinity, seconds: 30),
        view(completed: 200, total: 100, rate: .nan, average: .infinity, drained: true),
    ]

    static let widths = [0, 1, 10, 30, 45, 60, 80, 100, 120, 200]

    @Test(arguments: 0..<views.count) func theProgressLineIsItsSpans(index: Int) {
        let view = Self.views[index]
        for width in Self.widths {
            var drawn = CellBuffer(width: width, height: 3)
            view.render(into: &drawn, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
            let expected = Self.expectedProgressLine(view, width: width)
            let row = (2 * width)..<(3 * width)
            #expect(drawn.lines[2] == expected.lines[2], "\(width)")
            #expect(Array(drawn.cells[row]) == Array(expected.cells[row]), "\(width): \(drawn.lines[2])")
        }
    }

    /// Every ETA the header can show is `Format.duration`'s text: minutes, hours, days.
    @Test func durationsAreTheirText() {
        for seconds: Int64 in [0, 1, 9, 59, 60, 61, 599, 3_599, 3_600, 3_660, 86_399, 86_400, 90_000, 999_999_999] {
            let text = Format.duration(.seconds(seconds))
            #expect(Format.durationColumns(seconds) == text.count, "\(seconds)")
            var buffer = CellBuffer(width: 20, height: 1)
            var end = 0
            buffer.draw(in: Rect(x: 0, y: 0, width: 20, height: 1)) { canvas in
                end = canvas.writeScalars(x: 0, y: 0) { $0.put(duration: seconds, style: .plain) }
            }
            #expect(end == text.count)
            #expect(buffer.lines[0] == text)
        }
    }

    /// The running sparkline after the counts line is `Sparkline.row` of the seconds that fit.
    @Test func theRunningSparklineIsItsRow() {
        for seconds in [0, 7, 8, 30] {
            let view = Self.view(completed: 0, total: 0, rate: 0, seconds: seconds)
            let width = 120
            var drawn = CellBuffer(width: width, height: 3)
            view.render(into: &drawn, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
            let counts = HeaderCountsDigitsTests.spans(view.counts, evicted: 0)
            let countsWidth = counts.reduce(0) { $0 + $1.width }
            let count = min(seconds, width - countsWidth - 10)
            var expected = CellBuffer(width: width, height: 3)
            expected.draw(in: Rect(x: 0, y: 0, width: width, height: 3)) { canvas in
                var spans = counts
                if count >= 8 {
                    spans.append(Span("  running ", Theme.label))
                    let row = Sparkline.row(view.recentRunning.suffix(count), glyphs: .unicode)
                    spans.append(Span(row, Theme.sparkline))
                }
                canvas.write(spans, x: 0, y: 1, maxWidth: width)
            }
            let row = width..<(2 * width)
            #expect(drawn.lines[1] == expected.lines[1], "\(seconds)")
            #expect(Array(drawn.cells[row]) == Array(expected.cells[row]), "\(seconds)")
        }
    }

    /// Drawn through one render cache frame after frame (each line copied when its key says
    /// nothing it shows moved), the header is what it is drawn afresh: the progress line's key
    /// (figures, percentage, bar) moves whenever what it shows does.
    @Test func aCachedHeaderIsTheHeaderDrawnAfresh() {
        let cache = RenderCache()
        let width = 120
        var cached = CellBuffer(width: width, height: 3)
        var view = Self.view(completed: 0, total: 50_000_000, rate: 0, seconds: 30)
        var generator = SeededGenerator(seed: 7)
        for frame in 0..<400 {
            // Small steps, so that many frames show the same figures and some do not.
            view.completedBytes = min(view.totalBytes, view.completedBytes + Int64(generator.next() % 90_000))
            if generator.next() % 3 == 0 { view.bytesPerSecond = Double(generator.next() % 2_000_000) }
            if generator.next() % 50 == 0 { view.totalBytes += 1_000_000 }
            if generator.next() % 40 == 0 { view.recentFinished[29] += 1 }
            view.isDrained = view.completedBytes == view.totalBytes && generator.next() % 2 == 0
            view.render(into: &cached, area: Rect(x: 0, y: 0, width: width, height: 3), cache: cache)
            var fresh = CellBuffer(width: width, height: 3)
            view.render(into: &fresh, area: Rect(x: 0, y: 0, width: width, height: 3), cache: nil)
            #expect(cached.cells == fresh.cells, "frame \(frame): \(cached.lines[2]) against \(fresh.lines[2])")
            if cached.cells != fresh.cells { return }
        }
    }
}
