import OpsDashUI
import OpsMonitor
import Testing

/// Rendering a huge snapshot reads only what is visible, so the frame equals the one for the
/// first rows alone (apart from the totals, which come precomputed from the snapshot).
@Suite struct ScaleTests {
    private static func operation(_ id: Int) -> OperationSnapshot {
        OperationSnapshot(
            id: id, name: "transfer-\(id)", kind: id % 2 == 0 ? .download : .upload,
            lifecycle: id <= 3 ? .executing : .ready, completedUnits: Int64(id % 100) * 1024,
            totalUnits: 100 * 1024, unitsPerSecond: id <= 3 ? 2048 : 0, addedAt: .zero,
            startedAt: id <= 3 ? .seconds(1) : nil)
    }

    private static func snapshot(count: Int, template: QueueSnapshot? = nil) -> QueueSnapshot {
        var snapshot = template ?? Fixtures.snapshot((1...count).map(operation), limit: 3)
        if template != nil {
            snapshot.operations = ChunkedArray((1...count).map(operation))
        }
        return snapshot
    }

    @Test func hundredThousandOperationsRenderLikeTheirFirstRows() {
        let big = Self.snapshot(count: 100_000)
        let visible = Layout(width: 120, height: 40, showDetails: false).visibleRows
        // Same counts and totals, only the rows that fit on screen (ids up to 100000 keep the
        // id column equally wide, so pad with the last id).
        var small = big
        small.operations = ChunkedArray(
            (1...visible).map(Self.operation) + [Self.operation(100_000)])
        let bigFrame = render(Fixtures.state(big))
        let smallFrame = render(Fixtures.state(small))
        // The footer shows the row count, which differs by design.
        #expect(bigFrame.lines.dropLast() == smallFrame.lines.dropLast())
        #expect(bigFrame.lines.last?.hasSuffix("1/100000") == true)
    }

    @Test func hundredThousandOperationsScrollToTheEnd() {
        var state = Fixtures.state(Self.snapshot(count: 100_000))
        state.press(.end)
        #expect(state.selectedID == 100_000)
        let frame = render(state)
        let rowsArea = frame.lines[4..<(4 + Layout(state).visibleRows)]
        #expect(rowsArea.last?.hasPrefix("#100000") == true)
        #expect(rowsArea.first?.hasPrefix("#\(100_000 - Layout(state).visibleRows + 1)") == true)
    }

    @Test func theDefaultOrderUsesTheSnapshotWithoutCopying() {
        let state = Fixtures.state(Self.snapshot(count: 100_000))
        #expect(state.rows.isByID)
        #expect(state.rows.ids.isEmpty)
    }
}
