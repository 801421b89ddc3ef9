import OpsMonitor
import Testing

@testable import OpsDashUI

/// Widgets built from their content alone, with no dashboard state: each draws what it was
/// given, where it was put.
@Suite struct WidgetContentTests {
    /// `draw` into `area` of a blank `width × height` buffer; the lines, trailing spaces trimmed.
    private func lines(width: Int = 70, height: Int = 8, _ draw: (inout CellBuffer) -> Void) -> [String] {
        var buffer = CellBuffer(width: width, height: height)
        draw(&buffer)
        return buffer.lines
    }

    private let operation = OperationSnapshot(
        id: 7, name: "fetch 下载.zip", kind: .download, lifecycle: .executing, completedUnits: 500,
        totalUnits: 1_000, dependencies: [3], startedAt: .seconds(1))

    @Test func theHeaderShowsTheCountsAndLimitItWasGiven() {
        var header = HeaderView()
        header.counts = StateCounts(waiting: 1, ready: 0, executing: 2, succeeded: 4, failed: 0, cancelled: 0)
        header.concurrency = 3
        header.filter = "dl"
        let shown = lines(width: 100) { header.render(into: &$0, area: Rect(x: 2, y: 1, width: 96, height: 3)) }
        #expect(shown[0].isEmpty)
        #expect(shown[1].hasPrefix("  opsdash │  RUNNING  │ running 2/3 │ sort id │ filter dl "))
        #expect(shown[1].hasSuffix(" elapsed 0:00"))
        #expect(shown[2].hasPrefix("  waiting 1  ready 0  running 2  succeeded 4"))
        #expect(shown[3].hasPrefix("  progress "))
        #expect(shown[4].isEmpty)
    }

    @Test func theTableListsTheRowsItWasGiven() {
        let row = TableView.Row(operation, why: .none, elapsed: .seconds(4), isSelected: false)
        let table = TableView(maxID: 7, rows: [row])
        let shown = lines { table.render(into: &$0, area: Rect(x: 3, y: 2, width: 60, height: 3)) }
        #expect(shown[2].hasPrefix("   ID    NAME         STATE"))
        #expect(shown[3].hasPrefix("   #7  ↓ fetch…载.zip running   ██████······  50%"))
        #expect(shown[4].isEmpty && shown[1].isEmpty)
    }

    @Test func theTreeDrawsItsRowsUnderTheTitle() {
        let row = TreeView.Row(
            operation: operation, guides: [true, true], depth: 1, isContext: false, why: .none, alsoAfter: [5],
            isSelected: false)
        let tree = TreeView(rows: [row])
        let shown = lines { tree.render(into: &$0, area: Rect(x: 0, y: 0, width: 70, height: 2)) }
        #expect(shown[0].hasPrefix("DEPENDENCIES roots first"))
        #expect(shown[1] == "└─ #7 ↓ fetch 下载.zip running 50% (also after #5)")
    }

    @Test func detailsNameTheRelatedOperationsTheyWereGiven() {
        let details = DetailsView(
            operation: operation, dependencies: [.init(id: 3, name: nil, state: nil)],
            dependents: [.init(id: 9, name: "merge", state: .waiting)])
        let shown = lines(height: 12) { details.render(into: &$0, area: Rect(x: 0, y: 1, width: 70, height: 10)) }
        #expect(shown[1].hasPrefix("─ Details #7 ─"))
        #expect(shown.contains(" depends on #3 (evicted)"))
        #expect(shown.contains(" dependents #9 merge waiting"))
    }

    @Test func stateContentIsWhatTheWidgetShows() {
        var state = Fixtures.state(Fixtures.midRun(), width: 120, height: 40)
        #expect(HeaderView(state).filter == nil)
        state.press(.character("f"))
        #expect(HeaderView(state).filter == "")
        #expect(TableView(state, rows: 3).rows.map(\.id) == [1, 2, 3])
        #expect(TableView(state, rows: 0).rows.isEmpty)
        #expect(LogView(state, lines: 2).lines.count == 2)
        #expect(DetailsView(state).operation?.id == state.selectedID)
    }
}

@Suite struct DetailsPercentileTests {
    @Test func detailsShowTheRecentPercentilesOfTheOperationsKind() {
        let operation = OperationSnapshot(id: 7, name: "fetch", kind: .download, lifecycle: .executing)
        let recent = TimingPercentiles(
            count: 812, wait: Percentiles(p50: .milliseconds(200), p95: .milliseconds(1_100), p99: .seconds(3)),
            run: Percentiles(p50: .seconds(12), p95: .seconds(65), p99: .seconds(125)))
        var buffer = CellBuffer(width: 80, height: 12)
        DetailsView(operation: operation, recent: recent).render(
            into: &buffer, area: Rect(x: 0, y: 0, width: 80, height: 12))
        #expect(buffer.lines.contains(" wait time  p50 0.2s p95 1.1s p99 3.0s last 812 download finishes"))
        #expect(buffer.lines.contains(" run time   p50 12s p95 1:05 p99 2:05"))
    }

    @Test func aPaneWithNoRecentFinishesLeavesThemOut() {
        let operation = OperationSnapshot(id: 7, name: "fetch", kind: .download, lifecycle: .executing)
        var buffer = CellBuffer(width: 80, height: 12)
        DetailsView(operation: operation).render(into: &buffer, area: Rect(x: 0, y: 0, width: 80, height: 12))
        #expect(!buffer.lines.contains { $0.contains("recent") })
    }
}
