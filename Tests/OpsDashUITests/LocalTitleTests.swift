import OpsMonitor
import Testing

@testable import OpsDashUI

/// A local run's header names its scenario; an attached app's clock says it is the app's.
@Suite struct LocalTitleTests {
    @Test func theLocalHeaderNamesTheScenario() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 14)
        state.title = "pipeline"
        let line = render(state).line(0)
        #expect(line.hasPrefix("opsdash │ pipeline │  RUNNING  │ running 3/3"), "\(line)")
        #expect(line.hasSuffix("elapsed 1:05"), "\(line)")
    }

    @Test func anAttachedAppShowsNoScenarioTitle() {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 14)
        state.title = "pipeline"
        _ = reduce(&state, .source(SourceStatus(label: "AppExample/images", detail: "connected", link: .connected)))
        let line = render(state).line(0)
        #expect(!line.contains("pipeline"), "\(line)")
        #expect(line.hasSuffix("app time 1:05"), "\(line)")
    }
}
