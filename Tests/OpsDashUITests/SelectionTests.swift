import OpsDashUI
import OpsMonitor
import Testing

@Suite struct SelectionTests {
    @Test func selectionFollowsTheOperationWhenTheSortChanges() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down, .down, .down)  // #4 thumbnails, 85% done
        #expect(state.selectedID == 4)
        state.press(.character("s"))  // state: running first
        #expect(state.selectedID == 4)
        #expect(state.selectedIndex == 2)
        state.press(.character("s"))  // progress: #1 done first, then #4
        #expect(state.selectedID == 4)
        #expect(state.selectedIndex == 1)
        state.press(.character("s"))  // rate: #2, #3, #4
        #expect(state.selectedID == 4)
        #expect(state.selectedIndex == 2)
    }

    @Test func sortOrdersAreAsDocumented() {
        var state = Fixtures.state(Fixtures.midRun())
        func ids() -> [Int] {
            (0..<state.rows.count(in: state.snapshot)).compactMap {
                state.rows.operation(at: $0, in: state.snapshot)?.id
            }
        }
        #expect(ids() == Array(1...12))
        state.press(.character("s"))
        #expect(ids() == [2, 3, 4, 9, 5, 6, 7, 8, 12, 10, 11, 1])
        state.press(.character("s"))
        #expect(ids().prefix(4) == [1, 4, 2, 3])
        state.press(.character("s"))
        #expect(ids().prefix(3) == [2, 3, 4])
    }

    @Test func selectionStaysWhenAFilterKeepsTheOperation() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.down, .down)  // #3 video-part-2
        state.press(.character("f"))
        state.type("video")
        #expect(state.selectedID == 3)
        state.press(.escape)
        #expect(state.selectedID == 3)
    }

    @Test func filteringOutTheSelectionSelectsTheNearestRow() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.end)  // #12 notify-webhook, row 11
        state.press(.character("f"))
        state.type("trans")
        #expect(state.selectedID == 6, "the last matching row is nearest to row 11")
    }

    @Test func selectionFollowsTheOperationAcrossSnapshots() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("s"), .home, .down, .down)  // state sort: #2, #3, #4…
        #expect(state.selectedID == 4)
        var next = Fixtures.midRun(version: 2)
        // #4 finishes: it moves to the bottom group of the state sort.
        var operations = Array(next.operations)
        operations[3].lifecycle = .finished
        operations[3].outcome = .succeeded
        next = Fixtures.snapshot(operations, version: 2)
        _ = reduce(&state, .tick(next))
        #expect(state.selectedID == 4)
        #expect(state.selectedIndex == 11)
        #expect(state.scrollOffset <= 11)
    }

    @Test func anEvictedSelectionMovesToTheNextId() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        let remaining = Array(Fixtures.midRun().operations).filter { $0.id != 1 }
        _ = reduce(&state, .tick(Fixtures.snapshot(remaining, evicted: 1, version: 2)))
        #expect(state.selectedID == 2)
        #expect(state.selectedIndex == 0)
    }

    @Test func scrollingKeepsTheSelectionVisible() {
        var state = Fixtures.state(Fixtures.plain(50), width: 80, height: 14)
        let visible = Layout(state).visibleRows
        for _ in 0..<20 { state.press(.down) }
        #expect(state.selectedIndex == 20)
        #expect(state.scrollOffset == 20 - visible + 1)
        for _ in 0..<5 { state.press(.up) }
        #expect(state.scrollOffset == 20 - visible + 1)
        for _ in 0..<15 { state.press(.up) }
        #expect(state.scrollOffset == 0)
    }

    @Test func theDependencyTreeMovesTheSelectionInTreeOrder() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("d"))
        var visited: [Int] = []
        for _ in 0..<12 {
            visited.append(state.selectedID ?? 0)
            state.press(.down)
        }
        #expect(visited == [1, 2, 5, 7, 8, 12, 3, 6, 4, 9, 10, 11])
    }

    @Test func emptySnapshotsHaveNoSelectionAndDoNotCrash() {
        var state = Fixtures.state(Fixtures.snapshot([]))
        state.press(.down, .end, .pageDown, .character("c"), .enter, .character("d"))
        #expect(state.selectedID == nil)
        _ = render(state)
    }
}
