import OpsDashUI
import OpsMonitor
import Testing

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
