import OpsDashUI
import Testing

@testable import OpsDashUI

/// A dashboard opened from the fleet list says what `q` does there: back to the list (footer
/// `q back`, help), and `Q` quits; a dashboard on its own keeps `q quit`.
@Suite struct FleetDrilledDashboardTests {
    @Test func theFooterAndTheHelpSayQGoesBackAndQQuits() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 60)
        state.openedFromFleet = true
        #expect(render(state).lines.last?.hasPrefix("q back ") == true, "\(render(state).lines.last ?? "")")
        state.press(.character("?"))
        let help = render(state).lines
        #expect(
            help.contains { $0.contains("q             back to the fleet list") }, "\(help.joined(separator: "\n"))")
        #expect(help.contains { $0.contains("Q             quit opsdash") })
        #expect(!help.contains { $0.contains("q             quit") })
    }

    @Test func aDashboardOnItsOwnKeepsQQuit() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 60)
        #expect(render(state).lines.last?.hasPrefix("q quit ") == true)
        state.press(.character("?"))
        let help = render(state).lines
        #expect(help.contains { $0.contains("q             quit") })
        #expect(!help.contains { $0.contains("Q             quit opsdash") })
    }
}
