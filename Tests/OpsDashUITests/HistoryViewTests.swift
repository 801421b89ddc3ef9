import OpsMonitor
import Testing

@testable import OpsDashUI

/// The monitor's per-second history on screen: sparklines in the header, and the history view
/// (`h`) with every series over the window and its scale.
@Suite struct HistoryViewTests {
    /// 65 seconds of a run: finishes rising and falling, a failure at 40 s, bytes with the
    /// finishes, running 3 then 2, work waiting draining down.
    static func history() -> QueueHistory {
        var history = QueueHistory()
        for second in 0...65 {
            let finishes = (second % 20) / 4
            for finish in 0..<finishes {
                history.record(
                    at: .seconds(second), finished: second == 45 && finish == 0 ? .failed : .succeeded,
                    bytes: 250_000, running: second < 50 ? 3 : 2, waiting: max(0, 60 - second))
            }
            history.record(at: .seconds(second), running: second < 50 ? 3 : 2, waiting: max(0, 60 - second))
        }
        return history
    }

    static func state(width: Int = 120, height: Int = 40, glyphs: GlyphSet = .unicode) -> DashboardState {
        var snapshot = Fixtures.midRun()
        snapshot.history = history()
        return Fixtures.state(snapshot, width: width, height: height, glyphs: glyphs)
    }

    @Test func theHeaderShowsTheLastSecondsAsSparklines() {
        expectFrame(render(Self.state()), named: "history-header-120x40")
        let header = HeaderView(Self.state())
        #expect(header.recentFinished.count == HeaderView.sparklineSeconds)
        #expect(header.recentFinished.last == 1, "65 s: (65 % 20) / 4 finishes")
        #expect(header.recentFailed.reduce(0, +) == 1)
    }

    @Test func noHistoryNoSparkline() {
        let lines = render(Fixtures.state(Fixtures.midRun())).lines
        #expect(!lines[1].contains("▁") && !lines[2].contains("done "))
    }

    @Test func hShowsEverySeriesWithItsScaleAndEscGoesBack() {
        var state = Self.state(width: 100, height: 30)
        state.press(.character("h"))
        #expect(state.showHistory)
        expectFrame(render(state), named: "history-view-100x30")
        state.press(.escape)
        #expect(!state.showHistory)
        state.press(.character("h"), .character("h"))
        #expect(!state.showHistory, "h again: the table")
    }

    @Test func theViewDrawsInASCII() {
        var state = Self.state(width: 80, height: 24, glyphs: .ascii)
        state.press(.character("h"))
        expectFrame(render(state), named: "history-view-ascii-80x24")
    }

    @Test func aReplayCursorStandsAtThePlayhead() {
        var state = Self.state(width: 100, height: 30)
        var playback = Playback(position: .seconds(40), length: .seconds(65), speed: 1, state: .paused)
        playback.timeline = Self.history()
        state.source = SourceStatus(label: "REPLAY q", detail: "", link: .connecting, playback: playback)
        state.press(.character("h"))
        let view = HistoryView(state)
        #expect(view.cursor == .seconds(40))
        expectFrame(render(state), named: "history-replay-cursor-100x30")
    }

    @Test func sparklinesScaleToTheirPeak() {
        #expect(Sparkline.row([0, 1, 4, 7, 14], glyphs: .unicode) == "▁▂▃▅█")
        #expect(Sparkline.row([0, 1, 7], glyphs: .ascii) == "_.#")
        #expect(Sparkline.row([], glyphs: .unicode).isEmpty)
        #expect(Sparkline.downsampled([1, 5, 2, 2, 9, 0, 3], per: 3) == [1, 5, 9], "grouped from the newest")
        #expect(Sparkline.chartCell(4, peak: 8, row: 0, height: 2, glyphs: .unicode) == " ")
        #expect(Sparkline.chartCell(4, peak: 8, row: 1, height: 2, glyphs: .unicode) == "█")
        #expect(Sparkline.chartCell(1, peak: 1_000, row: 1, height: 2, glyphs: .unicode) == "▁", "tiny but shown")
        #expect(Sparkline.chartCell(.max, peak: .max, row: 0, height: 4, glyphs: .unicode) == "█")
    }

    @Test func anEmptyHistorySaysSo() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 24)
        state.press(.character("h"))
        #expect(render(state).lines[4].contains("nothing recorded yet"))
    }
}
