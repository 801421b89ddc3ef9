import OpsMonitor
import Testing

@testable import OpsDashUI

/// Drawn over the frame on screen, a table row the screen shows already (the same line in the
/// same place) is left alone; every other row is blanked and drawn, so each frame is still
/// exactly what a full render draws.
@Suite struct TableRowsInPlaceTests {
    /// 60 operations, sorted by state: ten running at the top, then the others finished.
    static func running(count: Int = 60, running: Int = 10) -> QueueSnapshot {
        let operations = (1...count).map { id in
            id <= running
                ? OperationSnapshot(
                    id: id, name: "part-\(id).bin", kind: .download, lifecycle: .executing,
                    completedUnits: Int64(id) * 1_000, totalUnits: 100_000, unitsPerSecond: 1_000, addedAt: .zero,
                    startedAt: .seconds(1))
                : OperationSnapshot(
                    id: id, name: "part-\(id).bin", kind: .download, lifecycle: .finished, outcome: .succeeded,
                    completedUnits: 100_000, totalUnits: 100_000, addedAt: .zero, startedAt: .seconds(1),
                    finishedAt: .seconds(3))
        }
        return Fixtures.snapshot(operations, time: .milliseconds(5_200))
    }

    @Test func onlyTheRowThatMovedIsDrawnAgain() {
        let renderer = FrameRenderer()
        var state = Fixtures.state(Self.running(), width: 120, height: 40)
        state.sort = .state
        _ = renderer.frame(for: state)
        state.snapshot.operations[3].completedUnits += 20_000
        state.snapshot.version += 1
        let runs = renderer.frame(for: state)
        #expect(renderer.front == render(state))
        let layout = Layout(state)
        let rows = Set(runs.map(\.y)).filter { $0 >= layout.main.y && $0 < layout.main.maxY }
        #expect(rows.count == 1)

        // Drawn in place, the other table rows are not even blanked.
        let cache = RenderCache()
        var screen = CellBuffer(width: 0, height: 0)
        _ = cache.beginFrame(inPlace: screen, width: state.width, height: state.height)
        render(state, into: &screen, cache: cache)
        cache.endFrame()
        state.snapshot.operations[5].completedUnits += 20_000
        state.snapshot.version += 1
        #expect(cache.beginFrame(inPlace: screen, width: state.width, height: state.height))
        render(state, into: &screen, cache: cache)
        let touched = (layout.main.y..<layout.main.maxY).filter { cache.isTouched(row: $0) }
        #expect(touched.count == 1)
        #expect(screen == render(state))
        cache.endFrame()
    }

    /// One change each, each kept by the next, every frame compared with a full render (on the
    /// renderer's buffer and on a terminal that got only the runs sent).
    static let steps: [(String, @Sendable (inout DashboardState) -> Void)] = [
        ("nothing", { _ in }),
        ("a bar moves", { $0.snapshot.operations[2].completedUnits += 30_000 }),
        (
            "a running operation finishes: the rows below it move up",
            {
                $0.snapshot.operations[0].lifecycle = .finished
                $0.snapshot.operations[0].outcome = .succeeded
                $0.snapshot.operations[0].finishedAt = .seconds(5)
            }
        ),
        ("selection down", { _ = $0.press(.down) }),
        ("selection down again", { _ = $0.press(.down) }),
        ("scrolled a page", { _ = $0.press(.pageDown) }),
        ("back to the top", { _ = $0.press(.home) }),
        ("details open", { _ = $0.press(.enter) }),
        ("a bar moves under the details", { $0.snapshot.operations[4].completedUnits += 10_000 }),
        ("details closed", { _ = $0.press(.escape) }),
        ("help open", { _ = $0.press(.character("?")) }),
        ("help closed", { _ = $0.press(.escape) }),
        ("filtered to a few rows", { $0.filter = "part-1" }),
        ("filter cleared", { $0.filter = "" }),
        ("sorted by id", { $0.sort = .id }),
        ("sorted by state", { $0.sort = .state }),
        ("tree", { _ = $0.press(.character("d")) }),
        ("table again", { _ = $0.press(.character("d")) }),
        ("narrower", { $0.width = 100 }),
    ]

    @Test func everyFrameMatchesAFullRender() {
        let renderer = FrameRenderer()
        var state = Fixtures.state(Self.running(), width: 120, height: 40)
        state.sort = .state
        var terminal = TerminalModel(width: state.width, height: state.height)
        var width = state.width
        for (name, change) in Self.steps {
            change(&state)
            state.snapshot.version += 1
            _ = reduce(&state, .tick(state.snapshot))
            if state.width != width {
                width = state.width
                terminal = TerminalModel(width: state.width, height: state.height)
            }
            terminal.apply(renderer.frame(for: state))
            let expected = render(state)
            #expect(renderer.front.lines == expected.lines, "after \(name)")
            #expect(renderer.front == expected, "after \(name)")
            #expect(terminal.lines == expected.lines, "after \(name)")
        }
    }
}
