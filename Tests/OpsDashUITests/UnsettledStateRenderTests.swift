import OpsMonitor
import Testing

@testable import OpsDashUI

/// A state changed outside `reduce` (its rows or selection not settled) renders as `reduce`
/// would have left it; one `reduce` left is drawn as it is, with no copy (`isSettled`).
@Suite struct UnsettledStateRenderTests {
    /// `state` as `reduce` leaves it.
    private func settled(_ state: DashboardState) -> DashboardState {
        var state = state
        refreshRows(&state)
        followSelection(&state)
        return state
    }

    @Test func aStateFromReduceIsSettled() {
        var state = Fixtures.state(Fixtures.plain(200), width: 120, height: 40)
        _ = reduce(&state, .key(.pageDown))
        #expect(isSettled(state))
        _ = reduce(&state, .tick(Fixtures.plain(300, version: 2)))
        #expect(isSettled(state))
    }

    @Test func staleRowsAreMadeBeforeDrawing() {
        var state = Fixtures.state(Fixtures.midRun(), width: 120, height: 40)
        state.sort = .state
        #expect(!isSettled(state))
        #expect(render(state) == render(settled(state)))
        let renderer = FrameRenderer()
        #expect(renderer.frame(for: state).isEmpty == false)
        #expect(renderer.front == render(settled(state)))
    }

    @Test func aSelectionOutOfViewIsScrolledToBeforeDrawing() {
        var state = Fixtures.state(Fixtures.plain(200), width: 120, height: 40)
        state.selectedID = 150
        #expect(!isSettled(state))
        #expect(settled(state).scrollOffset > 0)
        #expect(render(state) == render(settled(state)))
        let renderer = FrameRenderer()
        _ = renderer.frame(for: state)
        #expect(renderer.front == render(settled(state)))
    }
}
