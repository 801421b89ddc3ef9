import Foundation
import OpsDashUI
import OpsMonitor
import OpsKitTesting
import Testing

@testable import OpsDashLoop

/// A scripted reducer: sizes follow resizes, 'C' asks to cancel all, 'p' pauses, 'q' quits,
/// every key is written on row 0 so keys change the screen.
private func scriptedReduce(_ state: inout DashboardState, _ action: Action) -> [Command] {
    switch action {
    case .resize(let width, let height):
        state.width = width
        state.height = height
    case .tick(let snapshot): state.snapshot = snapshot
    case .key(.character("q")): return [.quit]
    case .key(.character("C")): return [.cancelAll]
    case .key(.character("p")): return [.setSuspended(true)]
    case .key(.control("l")): return [.repaint]
    case .key, .source, .refused, .notice, .noticeExpired: break
    }
    return []
}

private func scriptedRender(_ state: DashboardState) -> CellBuffer {
    var buffer = CellBuffer(width: state.width, height: state.height)
    buffer.write("\(state.width)x\(state.height)", x: 0, y: 0)
    return buffer
}

private func run(
    _ screen: FakeScreen, initial: DashboardState = DashboardState(width: 1, height: 1),
    inbox: LoopInbox = LoopInbox(), snapshot: () -> QueueSnapshot? = { nil }
) -> (DashboardExit, [Command]) {
    var commands: [Command] = []
    let exit = runLoop(
        screen: screen, fps: 20, initial: initial, inbox: inbox,
        refresh: { picture in
            guard let next = snapshot() else { return false }
            picture = next
            return true
        },
        perform: { commands.append($0) }, reducer: scriptedReduce, renderer: scriptedRender)
    return (exit, commands)
}

@Suite(.ownThread) struct RunLoopTests {
    @Test func scriptedSessionProducesCommandsAndDraws() throws {
        let screen = FakeScreen(
            width: 40, height: 10,
            script: [
                .key(.character("C")), nil, .resize(width: 50, height: 12), nil,
                .key(.character("p")), .key(.character("q")), .key(.character("C")),
            ])
        let (exit, commands) = run(screen)
        #expect(exit == .quit)
        #expect(commands == [.cancelAll, .setSuspended(true)])  // nothing after q
        // First frame paints the whole 40×10 screen, the resize repaints 50×12; keys that
        // don't change the screen draw nothing.
        try #require(screen.draws.count == 2)
        #expect(screen.cellCount(0) == 400)
        #expect(screen.cellCount(1) == 600)
        #expect(screen.draws[1].first?.cells.prefix(5).map(\.character) == Array("50x12"))
        #expect(screen.closeCount == 1)
        // Waits one frame interval (1000 / 20 fps), then drains queued input without waiting.
        #expect(screen.timeouts.first == 50)
        #expect(screen.timeouts.contains(0))
    }

    @Test func queuedInputIsDrainedBeforeTheNextFrame() {
        // Resize and q arrive together: the loop handles both before drawing again.
        let screen = FakeScreen(width: 20, height: 4, script: [.resize(width: 30, height: 4)])
        let (exit, _) = run(screen)
        #expect(exit == .quit)
        #expect(screen.draws.count == 1)
    }

    @Test func unchangedFrameDrawsNothing() {
        let same = QueueSnapshot()
        let screen = FakeScreen(width: 20, height: 4, script: [nil, nil, nil])
        let (exit, _) = run(screen, snapshot: { same })
        #expect(exit == .quit)
        #expect(screen.draws.count == 1)
        #expect(screen.draws.allSatisfy { !$0.isEmpty })
    }

    @Test func onlyChangedCellsAreRedrawn() throws {
        let screen = FakeScreen(width: 20, height: 4, script: [.resize(width: 20, height: 5), nil])
        _ = run(screen, initial: DashboardState(width: 20, height: 4))
        // "20x4" → "20x5" is a size change, so a full repaint.
        try #require(screen.draws.count == 2)
        #expect(screen.cellCount(1) == 100)
    }

    @Test func repaintClearsTheTerminalAndRedrawsEveryCell() throws {
        let screen = FakeScreen(width: 20, height: 4, script: [nil, .key(.control("l")), nil])
        let (exit, commands) = run(screen, initial: DashboardState(width: 20, height: 4))
        #expect(exit == .quit)
        #expect(commands.isEmpty, "the run loop handles the repaint itself")
        try #require(screen.draws.count == 2)
        #expect(screen.cellCount(1) == 80, "an unchanged picture is sent whole again")
        #expect(screen.clearedBeforeDraw == [1])
    }

    @Test func aStopSentToTheInboxEndsTheLoopAndCloses() {
        let inbox = LoopInbox()
        let screen = FakeScreen(width: 10, height: 2, script: [nil, nil, nil, nil, nil])
        screen.onRead = { reads in if reads == 2 { inbox.stop(signal: 15) } }
        let (exit, commands) = run(screen, inbox: inbox)
        #expect(exit == .signal(15))
        #expect(commands.isEmpty)
        #expect(screen.closeCount == 1)
        #expect(screen.timeouts.count == 2, "the stop is seen before the next wait for input")
    }

    @Test func aStopSentFromAnotherThreadEndsTheLoop() {
        let inbox = LoopInbox()
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            inbox.stop(signal: 2)
            sent.signal()
        }
        sent.wait()
        // An endless script of timeouts: only the stop can end this run.
        let screen = FakeScreen(width: 10, height: 2, script: Array(repeating: nil, count: 1_000))
        let (exit, _) = run(screen, inbox: inbox)
        #expect(exit == .signal(2))
    }

    @Test func sentActionsReachTheReducerInTheOrderSent() {
        let inbox = LoopInbox()
        let screen = FakeScreen(width: 10, height: 2, script: [nil, .key(.character("p")), nil])
        screen.onRead = { reads in
            if reads == 1 {
                inbox.send(.refused("read-only"))
                inbox.send(.notice("metrics on :9090"))
            }
        }
        var seen: [String] = []
        let exit = runLoop(
            screen: screen, fps: 20, initial: DashboardState(width: 10, height: 2), inbox: inbox,
            refresh: { _ in false },
            perform: { _ in },
            reducer: { state, action in
                if case .refused(let reason, _) = action { seen.append(reason) }
                if case .notice(let text) = action { seen.append(text) }
                return scriptedReduce(&state, action)
            },
            renderer: scriptedRender)
        #expect(exit == .quit)
        #expect(seen == ["read-only", "metrics on :9090"])
    }

    @Test func aClosedTerminalEndsTheLoopWithoutASignal() {
        let screen = FakeScreen(width: 10, height: 2, script: [nil, .closed, .key(.character("C"))])
        let (exit, commands) = run(screen)
        #expect(exit == .terminalClosed)
        #expect(commands.isEmpty)  // nothing read after the terminal went away
        #expect(screen.closeCount == 1)
    }

    @Test func lowFrameRatesStillLookForStopSignalsEvery100Milliseconds() {
        let inbox = LoopInbox()
        let screen = FakeScreen(width: 10, height: 2, script: Array(repeating: nil, count: 40))
        screen.onRead = { reads in if reads == 3 { inbox.stop(signal: 2) } }
        var commands: [Command] = []
        let exit = runLoop(
            screen: screen, fps: 1, initial: DashboardState(width: 1, height: 1), inbox: inbox, refresh: { _ in false },
            perform: { commands.append($0) }, reducer: scriptedReduce, renderer: scriptedRender)
        #expect(exit == .signal(2))
        // One frame at 1 fps is 1000 ms: waited in slices of at most 100 ms, each followed by a look.
        #expect(screen.timeouts.allSatisfy { $0 <= 100 }, "\(screen.timeouts)")
        #expect(screen.timeouts.count == 3)
    }
}

/// The loop hands `refresh` the picture it shows with no other holder, so a source can change
/// the store the picture came from in place (`QueueMonitor.refresh`).
@Suite(.ownThread) struct RunLoopRefreshTests {
    @Test(arguments: [OpsDashUI.SortOrder.id, .state])
    func refreshGetsThePictureShownAsItsOnlyHolder(sort: OpsDashUI.SortOrder) throws {
        var initial = DashboardState(width: 80, height: 20)
        initial.sort = sort
        let screen = FakeScreen(width: 80, height: 20, script: [nil, nil, nil, .key(.character("q"))])
        var inPlace: [Bool] = []
        _ = runDashboard(
            screen: screen, fps: 20, initial: initial, inbox: LoopInbox(),
            refresh: { picture in
                guard picture.version > 0 else {
                    // Finished rows listed by id: the table pane is kept by its chunks' stamps.
                    let rows = (1...5).map { OperationSnapshot(id: $0, name: "op\($0)", lifecycle: .finished) }
                    picture = QueueSnapshot(operations: ChunkedArray(rows), version: 1)
                    return true
                }
                let before = picture.operations.chunkAddress(0)
                picture.operations.update(at: 0) { $0.retries += 1 }
                inPlace.append(picture.operations.chunkAddress(0) == before)
                picture.version += 1
                return true
            },
            perform: { _ in })
        try #require(inPlace.count >= 2)
        #expect(inPlace.allSatisfy { $0 }, "the state, the row order or the table pane kept the picture's chunk")
    }
}
