import OpsMonitor
import Testing

@testable import OpsDashUI

/// `escapeClosesNothing`, which the fleet list's dashboard takes as "back to the list", holds
/// exactly when Esc would change nothing: each thing Esc closes keeps the dashboard.
@Suite struct EscapeClosesNothingTests {
    static let plain = Fixtures.state(Fixtures.snapshot([OperationSnapshot(id: 1, name: "a")]))

    @Test func aPlainDashboardHasNothingToClose() {
        #expect(Self.plain.escapeClosesNothing)
    }

    @Test(arguments: [
        Key.character("?"), .character("f"), .character("/"), .enter, .character("d"), .character("!"),
    ])
    func whatEscClosesKeepsTheDashboard(opening key: Key) {
        var state = Self.plain
        _ = reduce(&state, .key(key))
        if key == .character("f") || key == .character("/") {
            _ = reduce(&state, .key(.character("a")))
        }
        #expect(!state.escapeClosesNothing, "after \(key)")
        // Esc (as often as it takes) closes it, and then there is nothing left.
        for _ in 0..<3 where !state.escapeClosesNothing { _ = reduce(&state, .key(.escape)) }
        if key == .character("f") {
            // Esc undid the edit; the filter typed was never kept.
            #expect(state.filter.isEmpty)
        }
        #expect(state.escapeClosesNothing, "after \(key) and Esc")
    }
}
