import OpsDashUI
import OpsMonitor
import Testing

/// The movement keys, quitting and resizing.
@Suite struct NavigationKeyTests {
    @Test func qQuits() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func arrowsAndVimKeysMoveTheSelection() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.selectedID == 1)
        state.press(.down)
        #expect(state.selectedID == 2)
        state.press(.character("j"), .character("j"))
        #expect(state.selectedID == 4)
        state.press(.up)
        #expect(state.selectedID == 3)
        state.press(.character("k"), .character("k"), .character("k"))
        #expect(state.selectedID == 1)
    }

    @Test func pageKeysMoveByTheVisibleRowsAndHomeEndJump() {
        var state = Fixtures.state(Fixtures.plain(100), width: 80, height: 20)
        let page = Layout(state).visibleRows
        state.press(.pageDown)
        #expect(state.selectedID == 1 + page)
        state.press(.pageUp)
        #expect(state.selectedID == 1)
        state.press(.end)
        #expect(state.selectedID == 100)
        #expect(state.scrollOffset == 100 - page)
        state.press(.home)
        #expect(state.selectedID == 1)
        #expect(state.scrollOffset == 0)
    }

    @Test func resizeUpdatesTheSize() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(reduce(&state, .resize(width: 70, height: 15)).isEmpty)
        #expect(state.width == 70 && state.height == 15)
    }
}
