import OpsMonitor
import Testing

@testable import OpsDashUI

/// A pane (or line) whose inputs did not change is copied from the frame before instead of
/// drawn again: every input it shows must still redraw it. Each step changes one input, and the
/// frame must then be exactly what a full render draws.
@Suite struct PaneReuseTests {
    /// One change to what the dashboard shows, named for the failure message.
    struct Step: CustomTestStringConvertible, Sendable {
        let name: String
        let change: @Sendable (inout DashboardState) -> Void
        var testDescription: String { name }
    }

    /// Changes each header input in turn (each keeps the ones before it).
    static let headerSteps: [Step] = [
        Step(name: "nothing") { _ in },
        Step(name: "clock, same second") { $0.snapshot.time += .milliseconds(100) },
        Step(name: "clock, next second") { $0.snapshot.time += .seconds(1) },
        Step(name: "paused") { $0.snapshot.isSuspended = true },
        Step(name: "limit") { $0.snapshot.maxConcurrentOperationCount = 7 },
        Step(name: "limit pending") { $0.pendingConcurrency = 9 },
        Step(name: "sort") { $0.sort = .state },
        Step(name: "filter") { $0.filter = "fetch" },
        Step(name: "failed only") { $0.failedOnly = true },
        Step(name: "speed") { $0.speed = 4 },
        Step(name: "title") { $0.title = "scenario" },
        Step(name: "source") { $0.source = SourceStatus(label: "app", detail: "connected", link: .connected) },
        Step(name: "running count") {
            $0.snapshot.counts.executing += 1
            $0.snapshot.counts.waiting -= 1
        },
        Step(name: "a finish") { $0.snapshot.counts.succeeded += 1 },
        Step(name: "evicted") { $0.snapshot.evictedCount = 12 },
        Step(name: "bytes done") { $0.snapshot.completedBytes += 40_000 },
        Step(name: "bytes in total") { $0.snapshot.totalBytes += 1_000_000 },
        Step(name: "rate") { $0.snapshot.bytesPerSecond *= 3 },
        Step(name: "history") {
            $0.snapshot.history.record(at: .seconds(66), finished: .failed, running: 9, waiting: 1)
        },
        // The sparklines are kept between frames by what they are built from: each input anew.
        Step(name: "a success in the newest second") {
            $0.snapshot.history.record(at: .seconds(66), finished: .succeeded, running: 9, waiting: 1)
        },
        Step(name: "running in the newest second") {
            $0.snapshot.history.record(at: .seconds(66), running: 3, waiting: 1)
        },
        Step(name: "progress text wider, sparkline narrower") { $0.snapshot.totalBytes *= 1_000 },
        Step(name: "glyphs") { $0.glyphs = .ascii },
        Step(name: "drained") {
            $0.snapshot.drainedAt = $0.snapshot.time
            $0.snapshot.counts = StateCounts(succeeded: 5, failed: 1)
        },
        Step(name: "average rate after draining") { $0.snapshot.completedBytes += 900_000 },
        Step(name: "width") { $0.width = 100 },
    ]

    /// Draws `state` after each step with one renderer, expecting each frame to be what a full
    /// render draws, on the renderer's buffer and on a terminal that got only the runs sent.
    private func expectEveryFrameMatches(_ start: DashboardState, _ steps: [Step]) {
        let renderer = FrameRenderer()
        var state = start
        var terminal = TerminalModel(width: state.width, height: state.height)
        var width = state.width
        for step in steps {
            step.change(&state)
            if state.width != width {
                width = state.width
                terminal = TerminalModel(width: state.width, height: state.height)
            }
            terminal.apply(renderer.frame(for: state))
            let expected = render(state)
            #expect(renderer.front.lines == expected.lines, "after \(step.name)")
            #expect(renderer.front == expected, "after \(step.name)")
            #expect(terminal.lines == expected.lines, "after \(step.name)")
        }
    }

    @Test func everyHeaderInputRedrawsTheHeader() {
        expectEveryFrameMatches(HistoryViewTests.state(), Self.headerSteps)
    }

    /// Changes each footer input in turn.
    static let footerSteps: [Step] = [
        Step(name: "nothing") { _ in },
        Step(name: "message") { $0.message = "nothing to cancel" },
        Step(name: "another message") { $0.message = "queue paused" },
        Step(name: "message gone") { $0.message = nil },
        Step(name: "position") { _ = $0.press(.down) },
        Step(name: "more rows") {
            $0.snapshot.operations.append(OperationSnapshot(id: 500, name: "late.bin"))
        },
        Step(name: "a wider position") {
            for id in 501...600 { $0.snapshot.operations.append(OperationSnapshot(id: id, name: "more.bin")) }
        },
        Step(name: "a message with the position moving") {
            $0.message = "queue paused"
            $0.snapshot.operations.append(OperationSnapshot(id: 601, name: "last.bin"))
        },
        Step(name: "filter typed") { _ = $0.press(.character("f"), .character("x")) },
        Step(name: "filter kept") { _ = $0.press(.enter) },
        Step(name: "cancel prompt") { _ = $0.press(.character("C")) },
        Step(name: "prompt answered no") { _ = $0.press(.character("n")) },
        Step(name: "glyphs") { $0.glyphs = .ascii },
        Step(name: "narrower") { $0.width = 90 },
    ]

    @Test func everyFooterInputRedrawsTheFooter() {
        expectEveryFrameMatches(Fixtures.state(Fixtures.midRun(), width: 120, height: 40), Self.footerSteps)
    }

    @Test func anUnchangedHeaderLineIsCopiedNotDrawn() {
        let cache = RenderCache()
        var state = HistoryViewTests.state()
        var buffer = CellBuffer(width: 0, height: 0)
        cache.beginFrame(height: state.height)
        render(state, into: &buffer, cache: cache)
        cache.endFrame()
        // Only the progress line's inputs move: by a byte, which moves none of its figures,
        // percentage or bar (the line is copied), then by half the total (it is drawn).
        #expect(state.snapshot.totalBytes > 2_000)
        state.snapshot.completedBytes += 1
        cache.beginFrame(height: state.height)
        render(state, into: &buffer, cache: cache)
        #expect(cache.isUnchanged(row: 0))
        #expect(cache.isUnchanged(row: 1))
        #expect(cache.isUnchanged(row: 2))
        #expect(buffer == render(state))
        cache.endFrame()
        state.snapshot.completedBytes += state.snapshot.totalBytes / 2
        cache.beginFrame(height: state.height)
        render(state, into: &buffer, cache: cache)
        #expect(cache.isUnchanged(row: 0))
        #expect(cache.isUnchanged(row: 1))
        #expect(!cache.isUnchanged(row: 2))
        #expect(buffer == render(state))
    }

    /// 120 finished operations (every seventh failed, with a message) and 30 log entries, listed
    /// by id: the table and the log are both panes that can be copied.
    static func finishedRun(count: Int = 120) -> QueueSnapshot {
        let operations = (1...count).map { id in
            OperationSnapshot(
                id: id, name: "file-\(id).bin", kind: .download, lifecycle: .finished,
                outcome: id % 7 == 0 ? .failed : .succeeded, message: id % 7 == 0 ? "reset by peer" : nil,
                completedUnits: 1_000, totalUnits: 1_000, addedAt: .zero, startedAt: .seconds(Int64(id)),
                finishedAt: .seconds(Int64(id + 2)))
        }
        let log = (0..<30).map {
            LogEntry(time: .seconds(Int64($0)), kind: .state, operationID: $0 + 1, text: "file-\($0 + 1): finished")
        }
        return Fixtures.snapshot(operations, time: .seconds(200), log: log)
    }

    /// Changes each input of the table and the log in turn.
    static let paneSteps: [Step] = [
        Step(name: "nothing") { _ in },
        Step(name: "clock") { $0.snapshot.time += .seconds(3) },
        Step(name: "a visible operation renamed") { $0.snapshot.operations[4].name = "renamed.bin" },
        Step(name: "an operation below the table renamed") { $0.snapshot.operations[100].name = "below.bin" },
        Step(name: "the last visible operation renamed") {
            let last = Layout($0).visibleRows - 1
            $0.snapshot.operations[last].name = "last.bin"
        },
        Step(name: "the first operation below the table renamed") {
            $0.snapshot.operations[Layout($0).visibleRows].name = "next.bin"
        },
        Step(name: "the first visible operation's message") { $0.snapshot.operations[0].message = "slow" },
        Step(name: "a visible failure's message") { $0.snapshot.operations[6].message = "timed out" },
        Step(name: "selection") { _ = $0.press(.down) },
        Step(name: "search") { $0.search = "file-1" },
        Step(name: "search cleared") { $0.search = "" },
        Step(name: "scrolled") { _ = $0.press(.pageDown) },
        Step(name: "a wider id") {
            $0.snapshot.operations.append(
                OperationSnapshot(id: 1_000, name: "late.bin", lifecycle: .finished, outcome: .succeeded))
        },
        Step(name: "back to the top") { _ = $0.press(.home) },
        Step(name: "a visible operation running again") {
            $0.snapshot.operations[2].lifecycle = .executing
            $0.snapshot.operations[2].outcome = nil
            $0.snapshot.operations[2].finishedAt = nil
        },
        Step(name: "clock with a visible operation running") { $0.snapshot.time += .seconds(2) },
        Step(name: "clock again") { $0.snapshot.time += .seconds(2) },
        Step(name: "a log entry") {
            $0.snapshot.sharedLog.append(LogEntry(time: .seconds(205), kind: .action, text: "operator paused"))
        },
        Step(name: "the oldest log entries dropped") { $0.snapshot.sharedLog.removeFirst(5) },
        Step(name: "command log shown") { _ = $0.press(.character("a")) },
        Step(name: "command log hidden") { _ = $0.press(.character("a")) },
        Step(name: "glyphs") { $0.glyphs = .ascii },
        Step(name: "details open") { _ = $0.press(.enter) },
        Step(name: "details closed") { _ = $0.press(.escape) },
        Step(name: "help open") { _ = $0.press(.character("?")) },
        Step(name: "help closed") { _ = $0.press(.escape) },
        Step(name: "narrower") { $0.width = 100 },
    ]

    @Test func everyTableAndLogInputRedrawsThem() {
        expectEveryFrameMatches(Fixtures.state(Self.finishedRun(), width: 120, height: 40), Self.paneSteps)
    }

    @Test func unchangedTableAndLogAreCopiedFromTheScreen() {
        let cache = RenderCache()
        var state = Fixtures.state(Self.finishedRun(), width: 120, height: 40)
        let layout = Layout(state)
        var onScreen = CellBuffer(width: 0, height: 0)
        var next = CellBuffer(width: 0, height: 0)
        cache.beginFrame(height: state.height, onScreen: onScreen)
        render(state, into: &next, cache: cache)
        cache.endFrame()
        swap(&onScreen, &next)
        state.snapshot.completedBytes += 1
        state.snapshot.time += .seconds(1)
        cache.beginFrame(height: state.height, onScreen: onScreen)
        render(state, into: &next, cache: cache)
        for y in layout.main.y..<layout.main.maxY { #expect(cache.isUnchanged(row: y), "table row \(y)") }
        if let log = layout.log {
            for y in log.y..<log.maxY { #expect(cache.isUnchanged(row: y), "log row \(y)") }
        }
        #expect(next == render(state))
    }

    /// The footer row is left alone while its hints and position stay; a position that moves
    /// is drawn over the hints kept.
    @Test func theFooterRowIsKeptUntilWhatItShowsMoves() {
        let cache = RenderCache()
        var state = Fixtures.state(Fixtures.midRun(), width: 120, height: 40)
        let footer = state.height - 1
        var onScreen = CellBuffer(width: 0, height: 0)
        var next = CellBuffer(width: 0, height: 0)
        for step in 0..<3 {
            if step == 2 { state.snapshot.operations.append(OperationSnapshot(id: 900, name: "late.bin")) }
            cache.beginFrame(height: state.height, onScreen: onScreen)
            render(state, into: &next, cache: cache)
            #expect(cache.isUnchanged(row: footer) == (step == 1), "frame \(step)")
            #expect(next == render(state), "frame \(step)")
            cache.endFrame()
            swap(&onScreen, &next)
        }
    }

    /// Drawn over the frame on screen, the panes whose inputs did not change are not touched:
    /// only the rows blanked and drawn again are compared.
    @Test func panesLeftAloneAreNotTouchedInPlace() {
        let cache = RenderCache()
        var state = Fixtures.state(Self.finishedRun(), width: 120, height: 40)
        let layout = Layout(state)
        var screen = CellBuffer(width: 0, height: 0)
        #expect(!cache.beginFrame(inPlace: screen, width: state.width, height: state.height))
        render(state, into: &screen, cache: cache)
        cache.endFrame()
        state.snapshot.completedBytes += 1
        #expect(cache.beginFrame(inPlace: screen, width: state.width, height: state.height))
        render(state, into: &screen, cache: cache)
        for y in layout.main.y..<layout.main.maxY { #expect(!cache.isTouched(row: y), "table row \(y)") }
        if let log = layout.log {
            for y in log.y..<log.maxY { #expect(!cache.isTouched(row: y), "log row \(y)") }
        }
        #expect(cache.isTouched(row: 2))
        #expect(screen == render(state))
        cache.endFrame()
    }

    /// An operation below the table that changes in the chunk of the operations shown (a young
    /// queue's running ones, under its finished ones) leaves the table alone: only the rows
    /// shown are compared, not their chunks.
    @Test func aChangeBelowTheTableInItsChunkLeavesTheTableAlone() {
        let cache = RenderCache()
        var state = Fixtures.state(Self.finishedRun(count: 60), width: 120, height: 40)
        let layout = Layout(state)
        #expect(layout.visibleRows < 50)
        var screen = CellBuffer(width: 0, height: 0)
        _ = cache.beginFrame(inPlace: screen, width: state.width, height: state.height)
        render(state, into: &screen, cache: cache)
        cache.endFrame()
        state.snapshot.operations[55].lifecycle = .executing
        state.snapshot.operations[55].completedUnits = 10
        #expect(cache.beginFrame(inPlace: screen, width: state.width, height: state.height))
        render(state, into: &screen, cache: cache)
        for y in layout.main.y..<layout.main.maxY { #expect(!cache.isTouched(row: y), "table row \(y)") }
        #expect(screen == render(state))
        cache.endFrame()
    }
}
