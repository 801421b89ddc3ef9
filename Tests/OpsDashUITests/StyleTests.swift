import OpsDashUI
import OpsMonitor
import Testing

/// Styles that carry meaning, checked cell by cell.
@Suite struct StyleTests {
    /// The first cell of `text` on row `y`, if the row contains it.
    private func cell(_ buffer: CellBuffer, _ text: String, row y: Int) -> Cell? {
        let line = Array(buffer.line(y))
        let needle = Array(text)
        guard needle.count <= line.count else { return nil }
        for x in 0...(line.count - needle.count) where Array(line[x..<(x + needle.count)]) == needle {
            return buffer[x, y]
        }
        return nil
    }

    @Test func pausedIsYellowReverse() throws {
        let buffer = render(Fixtures.state(Fixtures.midRun(suspended: true)))
        let paused = try #require(cell(buffer, "PAUSED", row: 0))
        #expect(paused.style.foreground == .yellow)
        #expect(paused.style.reverse)
        #expect(paused.style.bold)
    }

    @Test func runningIsGreen() throws {
        let buffer = render(Fixtures.state(Fixtures.midRun()))
        let running = try #require(cell(buffer, "RUNNING", row: 0))
        #expect(running.style.background == .green)
        #expect(!running.style.reverse)
    }

    @Test func theSelectedRowIsReversedAcrossTheWidthAndOthersAreNot() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down)  // #2, on table row 2 (screen row 5)
        let buffer = render(state)
        #expect((0..<buffer.width).allSatisfy { buffer[$0, 5].style.reverse })
        #expect(!(0..<buffer.width).contains { buffer[$0, 4].style.reverse })
        #expect(!(0..<buffer.width).contains { buffer[$0, 6].style.reverse })
    }

    @Test func selectionIsReversedInTheDependencyTree() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("d"), .down)
        let buffer = render(state)
        #expect(buffer.line(5).contains("#2"))
        #expect(buffer[0, 5].style.reverse)
        #expect(!buffer[0, 4].style.reverse)
    }

    @Test func statesAreColoured() throws {
        let buffer = render(Fixtures.state(Fixtures.midRun()))
        #expect(try #require(cell(buffer, "failed", row: 13)).style.foreground == .red)
        #expect(try #require(cell(buffer, "running", row: 5)).style.foreground == .cyan)
        #expect(try #require(cell(buffer, "waiting", row: 8)).style.foreground == .magenta)
        #expect(try #require(cell(buffer, "succeeded", row: 4)).style.foreground == .green)
    }

    @Test func progressBarIsColouredByStateAndEmptyPartIsDim() throws {
        let buffer = render(Fixtures.state(Fixtures.midRun()))
        let filled = try #require(cell(buffer, "█████▍", row: 5))
        #expect(filled.style.foreground == .cyan)
        let empty = try #require(cell(buffer, "······", row: 5))
        #expect(empty.style.dim)
    }

    @Test func whyReasonsAreHighlighted() throws {
        let paused = render(Fixtures.state(Fixtures.midRun(suspended: true)))
        #expect(try #require(cell(paused, "queue paused", row: 12)).style.foreground == .yellow)
        let running = render(Fixtures.state(Fixtures.midRun()))
        #expect(try #require(cell(running, "slots busy", row: 12)).style.foreground == .yellow)
        #expect(try #require(cell(running, "HTTP 503", row: 13)).style.foreground == .red)
    }

    /// What changes every frame or second in the header is plain, so the terminal redraws it
    /// without attribute or colour switches (the byte budget in TerminalBytesTests).
    @Test func tickingHeaderValuesArePlain() throws {
        let buffer = render(Fixtures.state(Fixtures.midRun()))
        #expect(try #require(cell(buffer, "1:05", row: 0)).style == .plain)
        #expect(try #require(cell(buffer, "elapsed", row: 0)).style.dim)
        #expect(try #require(cell(buffer, "19%", row: 2)).style == .plain)
        #expect(try #require(cell(buffer, "█", row: 2)).style == .plain)
    }

    @Test func pendingConcurrencyIsHighlightedUntilConfirmed() throws {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("+"))
        let buffer = render(state)
        #expect(buffer.line(0).contains("running 3/4"))
        #expect(try #require(cell(buffer, "3/4", row: 0)).style.foreground == .default)
        let limit = try #require(cell(buffer, "4 │", row: 0))
        #expect(limit.style.foreground == .yellow)
    }

    @Test func cancelAllQuestionStandsOut() throws {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        let buffer = render(state)
        let question = try #require(cell(buffer, "Cancel all 9", row: 39))
        #expect(question.style.reverse)
    }
}
