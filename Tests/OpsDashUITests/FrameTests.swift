import OpsDashUI
import OpsMonitor
import Testing

/// Whole-frame snapshot tests: the complete expected screen, line by line, ratatui-style.
@Suite struct FrameTests {
    @Test func midRunTableWithHeaderLogAndFooter() {
        let state = Fixtures.state(Fixtures.midRun())
        expectFrame(render(state), named: "mid-run-120x40")
    }

    @Test func narrowTerminalDropsLessImportantColumns() {
        let state = Fixtures.state(Fixtures.midRun(), width: 60, height: 16)
        expectFrame(render(state), named: "narrow-60x16")
    }

    @Test func mediumTerminalKeepsMostColumns() {
        let state = Fixtures.state(Fixtures.midRun(), width: 90, height: 20)
        expectFrame(render(state), named: "medium-90x20")
    }

    @Test func pausedQueueShowsPausedAndWhyReadyOperationsWait() {
        var state = Fixtures.state(Fixtures.midRun(suspended: true), width: 100, height: 18)
        state.press(.end)
        expectFrame(render(state), named: "paused-100x18")
    }

    @Test func detailsPaneForTheSelectedOperation() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 30)
        state.press(.down, .enter)
        expectFrame(render(state), named: "details-100x30")
    }

    @Test func detailsPaneForAFailedOperation() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 24)
        state.press(.character("f"))
        state.type("cover")
        state.press(.enter, .enter)
        expectFrame(render(state), named: "details-failed-80x24")
    }

    @Test func dependencyTreeRootsFirstWithAlsoAfter() {
        var state = Fixtures.state(Fixtures.midRun(), width: 90, height: 22)
        state.press(.character("d"), .down, .down)
        expectFrame(render(state), named: "dependency-tree-90x22")
    }

    @Test func helpOverlayListsEveryKey() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 24)
        state.press(.character("?"))
        expectFrame(render(state), named: "help-80x24")
    }

    @Test func asciiGlyphSetDrawsOnlyAscii() {
        var state = Fixtures.state(Fixtures.midRun(), width: 120, height: 30, glyphs: .ascii)
        state.press(.enter)
        let buffer = render(state)
        expectFrame(buffer, named: "ascii-120x30")
        for line in buffer.lines {
            let isASCII = line.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "non-ASCII in: \(line)")
        }
    }

    @Test func asciiDependencyTreeAndHelp() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 24, glyphs: .ascii)
        state.press(.character("d"), .character("?"))
        let buffer = render(state)
        expectFrame(buffer, named: "ascii-tree-help-80x24")
        for line in buffer.lines {
            let isASCII = line.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(isASCII, "non-ASCII in: \(line)")
        }
    }

    @Test func cancelAllQuestionInTheFooter() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 14)
        state.press(.character("C"))
        expectFrame(render(state), named: "confirm-cancel-all-80x14")
    }

    @Test func filterBeingTypedAndPendingConcurrency() {
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 14)
        state.press(.character("+"), .character("f"))
        state.type("video")
        expectFrame(render(state), named: "filter-editing-80x14")
    }

    @Test func tooSmallTerminalAsksToEnlarge() {
        let state = Fixtures.state(Fixtures.midRun(), width: 59, height: 30)
        expectFrame(render(state), named: "too-small-59x30")
        let short = Fixtures.state(Fixtures.midRun(), width: 100, height: 11)
        let message = render(short).lines.filter { !$0.isEmpty }
        #expect(message.map { String($0.drop { $0 == " " }) } == ["enlarge the terminal (needs 60×12)"])
    }

    @Test func tinyAndEmptyTerminalsDoNotCrash() {
        for (width, height) in [(0, 0), (1, 1), (10, 1), (0, 5), (5, 0), (-3, -3)] {
            let state = Fixtures.state(Fixtures.midRun(), width: width, height: height)
            let buffer = render(state)
            #expect(buffer.width == max(0, width) && buffer.height == max(0, height))
        }
        let one = render(Fixtures.state(Fixtures.midRun(), width: 10, height: 1))
        #expect(one.lines == ["  60×12"])
    }

    @Test func emptyQueue() {
        let state = Fixtures.state(Fixtures.snapshot([], time: .zero), width: 70, height: 12)
        expectFrame(render(state), named: "empty-70x12")
    }

    /// After the last operation: DONE with the outcome counts, the clock stopped where the last
    /// operation finished (not the snapshot's later time), the average rate, the speed.
    @Test func aFinishedRunSaysDoneAndStopsTheClock() {
        var snapshot = Fixtures.finishedRun()
        snapshot.time = .seconds(600)
        var state = Fixtures.state(snapshot, width: 100, height: 14)
        state.speed = 20
        let buffer = render(state)
        expectFrame(buffer, named: "done-100x14")
        #expect(buffer.lines[0].contains(" DONE "))
        #expect(buffer.lines[0].contains("3 succeeded, 1 failed, 1 cancelled"))
        #expect(buffer.lines[0].hasSuffix("elapsed 0:42 ×20"))
        #expect(!buffer.lines[0].contains("RUNNING"))
        #expect(!buffer.lines[2].contains("ETA"))
    }
}
