import OpsDashUI
import OpsMonitor
import Testing

/// The frame renderer reuses rows and skips comparing unchanged ones: what it sends must still
/// turn the screen into exactly the frame `render` draws, every frame.
@Suite struct FrameRendererTests {
    /// A busy run: bars move every frame, operations finish and start, the clock ticks.
    private func busy(frame: Int, count: Int = 40) -> QueueSnapshot {
        let operations = (1...count).map { id -> OperationSnapshot in
            let finishedBy = frame / 2
            if id <= finishedBy {
                return OperationSnapshot(
                    id: id, name: "chunk-\(id).bin", kind: .download, lifecycle: .finished,
                    outcome: id % 7 == 0 ? .failed : .succeeded, message: id % 7 == 0 ? "reset" : nil,
                    completedUnits: 1_000, totalUnits: 1_000, startedAt: .seconds(Int64(id)),
                    finishedAt: .seconds(Int64(id + 3)))
            }
            if id <= finishedBy + 5 {
                return OperationSnapshot(
                    id: id, name: "chunk-\(id).bin", kind: .download, lifecycle: .executing,
                    completedUnits: Int64((frame * 37 + id * 11) % 1_000), totalUnits: 1_000,
                    unitsPerSecond: Double(100 + id), startedAt: .seconds(Int64(id)))
            }
            return OperationSnapshot(id: id, name: "chunk-\(id).bin", kind: .download, totalUnits: 1_000)
        }
        let log = (0..<frame).map {
            LogEntry(time: .milliseconds(Int64($0 * 50)), kind: .state, operationID: $0 / 2 + 1, text: "finished")
        }
        return Fixtures.snapshot(
            operations, time: .milliseconds(Int64(frame * 350)), limit: 5, log: log,
            version: UInt64(frame + 1))
    }

    @Test(arguments: [SortOrder.id, .state, .progress])
    func everyFrameMatchesAFullRender(sort: SortOrder) {
        let renderer = FrameRenderer()
        var terminal = TerminalModel(width: 100, height: 36)
        var state = Fixtures.state(busy(frame: 0), width: 100, height: 36)
        state.sort = sort
        let keys: [Int: Key] = [
            5: .down, 9: .down, 14: .character("f"), 15: .character("1"),
            17: .enter, 20: .character("?"), 22: .escape, 25: .enter, 30: .end,
        ]
        for frame in 0..<40 {
            if let key = keys[frame] { state.press(key) }
            _ = reduce(&state, .tick(busy(frame: frame)))
            let runs = renderer.frame(for: state)
            terminal.apply(runs)
            let expected = render(state)
            #expect(renderer.front == expected, "frame \(frame)")
            #expect(terminal.lines == expected.lines, "frame \(frame)")
        }
    }

    @Test func runsHandedOutStayAsTheyWereWhileLaterFramesAreDrawn() {
        // A frame's runs slice storage the next frame reuses: one still held is copied first.
        let renderer = FrameRenderer()
        var state = Fixtures.state(busy(frame: 0), width: 100, height: 36)
        var kept: [(frame: Int, runs: [CellRun], cells: [[Cell]])] = []
        for frame in 0..<20 {
            _ = reduce(&state, .tick(busy(frame: frame)))
            let runs = renderer.frame(for: state)
            kept.append((frame, runs, runs.map { Array($0.cells) }))
        }
        for (frame, runs, cells) in kept {
            #expect(!runs.isEmpty, "frame \(frame)")
            #expect(runs.map { Array($0.cells) } == cells, "frame \(frame)")
        }
    }

    @Test func anUnchangedStateSendsNothingAndInvalidateSendsEverything() {
        let renderer = FrameRenderer()
        let state = Fixtures.state(Fixtures.midRun(), width: 80, height: 30)
        #expect(!renderer.frame(for: state).isEmpty)
        #expect(renderer.frame(for: state).isEmpty)
        renderer.invalidate()
        let cells = renderer.frame(for: state).reduce(0) { $0 + $1.cells.count }
        #expect(cells == 80 * 30)
    }

    @Test func aResizeRepaintsEverything() {
        let renderer = FrameRenderer()
        var state = Fixtures.state(Fixtures.midRun(), width: 80, height: 30)
        _ = renderer.frame(for: state)
        _ = reduce(&state, .resize(width: 90, height: 30))
        let cells = renderer.frame(for: state).reduce(0) { $0 + $1.cells.count }
        #expect(cells == 90 * 30)
        #expect(renderer.front == render(state))
    }
}
