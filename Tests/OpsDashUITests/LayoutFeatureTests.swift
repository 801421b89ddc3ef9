import OpsDashUI
import OpsMonitor
import Testing

/// Ctrl-L, the growing WHY column, the scrolling details pane and help, the event log's spare
/// height and merged repeats, the "enlarge" screen.
@Suite struct RepaintAndTooSmallTests {
    @Test func ctrlLAsksForARepaintFromAnyScreen() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.control("l")) == [.repaint])
        state.press(.character("?"))
        #expect(state.press(.control("l")) == [.repaint])
        #expect(state.showHelp, "Ctrl-L leaves the overlay open")
        var small = Fixtures.state(Fixtures.midRun(), width: 30, height: 8)
        #expect(small.press(.control("l")) == [.repaint])
    }

    @Test func keysAreNotActedOnWhileTheTerminalIsTooSmall() {
        var state = Fixtures.state(Fixtures.midRun(), width: 50, height: 10)
        let commands = state.press(
            .down, .character("c"), .character("C"), .character("y"), .character("p"),
            .character("+"), .character("d"), .enter, .character("/"), .character("s"), .character("?"))
        #expect(commands.isEmpty)
        #expect(state.selectedID == 1 && state.sort == .id && !state.showDependencies)
        #expect(!state.showDetails && !state.showHelp && !state.isEditingFilter && state.prompt == nil)
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func theEnlargeMessageFitsAnySize() {
        for (width, height) in [(59, 30), (30, 5), (20, 3), (10, 3), (5, 2), (5, 1)] {
            let lines = render(Fixtures.state(Fixtures.midRun(), width: width, height: height)).lines
            let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
            #expect(text.contains("60×12"), "\(width)x\(height): \(lines)")
        }
        let tiny = render(Fixtures.state(Fixtures.midRun(), width: 10, height: 3)).lines
        #expect(tiny == ["enlarge to", "  60×12", ""])
        // Below five columns, what fits of it.
        #expect(render(Fixtures.state(Fixtures.midRun(), width: 3, height: 1)).lines == ["60×"])
    }
}

@Suite struct WhyColumnTests {
    @Test func theWhyColumnGrowsWithTheTerminal() {
        let long = "connection reset by peer after 3 retries (HTTP 503)"
        let failed = OperationSnapshot(
            id: 1, name: "big.iso", kind: .download, lifecycle: .finished, outcome: .failed,
            message: long)
        let wide = render(Fixtures.state(Fixtures.snapshot([failed]), width: 200, height: 12))
        #expect(wide.line(4).contains(long))
        let normal = render(Fixtures.state(Fixtures.snapshot([failed]), width: 120, height: 12))
        #expect(normal.line(4).contains("connection"))
        #expect(!normal.line(4).contains(long))
    }
}

@Suite struct DetailsScrollTests {
    static func longDetails() -> QueueSnapshot {
        var operations = (1...30).map { OperationSnapshot(id: $0, name: "part-\($0)-of-a-long-archive.bin") }
        operations.append(
            OperationSnapshot(
                id: 31, name: String(repeating: "very-long-name-", count: 12) + "end",
                lifecycle: .finished, outcome: .failed,
                message:
                    "the server closed the connection while the last chunk was being written, after three retries with back-off",
                dependencies: Array(1...30)))
        return Fixtures.snapshot(operations)
    }

    @Test func tabFocusesTheDetailsPaneAndArrowsScrollIt() {
        var state = Fixtures.state(Self.longDetails(), width: 80, height: 24)
        state.press(.end, .enter)
        let top = render(state).lines
        #expect(top.contains { $0.contains("very-long-name-very-long") })
        #expect(top.contains { $0.contains("Tab scrolls") })
        state.press(.tab, .pageDown, .pageDown, .pageDown, .end)
        #expect(state.selectedID == 31, "arrows scroll the pane, not the table")
        let bottom = render(state).lines
        #expect(bottom.contains { $0.contains("back-off") })
        #expect(bottom.contains { $0.contains("Tab back") })
        #expect(bottom.joined().contains("#30 part-30"))
        state.press(.home)
        #expect(state.detailsScroll == 0)
        state.press(.tab, .up)
        #expect(state.selectedID == 30, "Tab again: arrows move the selection")
        #expect(state.detailsScroll == 0, "another operation starts at the top")
    }

    @Test func detailsScrolledToTheEnd() {
        var state = Fixtures.state(Self.longDetails(), width: 80, height: 24)
        state.press(.end, .enter, .tab, .end)
        expectFrame(render(state), named: "details-scrolled-80x24")
    }
}

@Suite struct HelpTests {
    @Test func helpExplainsColumnsGlyphsAndTheLimitNotation() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 60)
        state.press(.character("?"))
        let text = render(state).lines.joined(separator: "\n")
        for needle in [
            "RT", "AFTER", "TIME", "WHY", "retries used", "↓ ↑ ⚙ ·", "download, upload",
            "executing 3/1", "limit", "Ctrl-L",
        ] {
            #expect(text.contains(needle), "help lacks \(needle)")
        }
    }

    @Test func helpScrollsOnASmallTerminal() {
        var state = Fixtures.state(Fixtures.midRun(), width: 60, height: 12)
        state.press(.character("?"))
        let first = render(state).lines
        #expect(first.contains { $0.contains("scroll") })
        expectFrame(render(state), named: "help-small-60x12")
        state.press(.end)
        let last = render(state).lines.joined(separator: "\n")
        #expect(last.contains("no concurrency limit"))
        #expect(state.selectedID == 1, "keys scroll the help, not the table")
        state.press(.home)
        #expect(state.helpScroll == 0)
        state.press(.escape)
        #expect(!state.showHelp)
    }
}

@Suite struct EventLogTests {
    static func repeatedActions() -> [LogEntry] {
        var log: [LogEntry] = [LogEntry(time: .seconds(1), kind: .state, operationID: 1, text: "started")]
        for second in 2...4 {
            log.append(LogEntry(time: .seconds(second), kind: .action, text: "operator cancelled #3"))
        }
        log.append(LogEntry(time: .seconds(5), kind: .queue, text: "queue paused"))
        log.append(LogEntry(time: .seconds(6), kind: .state, operationID: 2, text: "started"))
        log.append(LogEntry(time: .seconds(7), kind: .state, operationID: 2, text: "started"))
        return log
    }

    @Test func repeatedOperatorLinesAreMerged() {
        let snapshot = Fixtures.snapshot(
            (1...20).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: Self.repeatedActions())
        let lines = render(Fixtures.state(snapshot, width: 80, height: 40)).lines
        let cancelled = lines.filter { $0.contains("operator cancelled #3") }
        #expect(cancelled.count == 1)
        #expect(cancelled.first?.hasSuffix("operator cancelled #3 ×3") == true)
        #expect(cancelled.first?.contains("0:04.0") == true, "the newest time")
        #expect(lines.filter { $0.hasSuffix("#2 started") }.count == 2, "state lines are never merged")
    }

    @Test func theLogTakesTheHeightTheTableLeaves() {
        let log = (0..<40).map {
            LogEntry(time: .seconds(Int64($0)), kind: .queue, text: "concurrency limit \($0)")
        }
        let few = Fixtures.snapshot((1...3).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: log)
        let state = Fixtures.state(few, width: 80, height: 40)
        let layout = Layout(state)
        #expect(layout.visibleRows == 3)
        #expect(layout.log.map { $0.height } == 40 - 1 - 3 - 4)
        let lines = render(state).lines
        #expect(lines.contains { $0.hasSuffix("concurrency limit 39") })
        #expect(lines.contains { $0.hasSuffix("concurrency limit 9") })
        #expect(!lines.contains { $0.hasSuffix("concurrency limit 8") })
        // Many rows: the log keeps its standing height.
        let many = Fixtures.state(
            Fixtures.snapshot((1...100).map { OperationSnapshot(id: $0, name: "op-\($0)") }, log: log),
            width: 80, height: 40)
        #expect(Layout(many).log?.height == Layout.logHeight)
        // A short terminal shows the log when the table leaves room for it.
        let short = Fixtures.state(few, width: 80, height: 20)
        #expect(Layout(short).log.map { $0.height } == 20 - 1 - 3 - 4)
    }
}
