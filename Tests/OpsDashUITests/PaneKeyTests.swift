import OpsDashUI
import OpsMonitor
import Testing

/// Opening and closing the panes, and the sort order.
@Suite struct PaneKeyTests {
    @Test func dEnterAndQuestionMarkTogglePanes() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("d"))
        #expect(state.showDependencies)
        state.press(.character("d"))
        #expect(!state.showDependencies)
        state.press(.enter)
        #expect(state.showDetails)
        state.press(.enter)
        #expect(!state.showDetails)
        state.press(.character("?"))
        #expect(state.showHelp)
        state.press(.character("?"))
        #expect(!state.showHelp)
    }

    @Test func escapeClosesHelpAndHelpSwallowsOtherKeys() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("?"))
        #expect(state.press(.character("c")).isEmpty)
        #expect(state.press(.down).isEmpty)
        #expect(state.selectedID == 1)
        state.press(.escape)
        #expect(!state.showHelp)
        state.press(.character("?"))
        #expect(state.press(.character("q")) == [.quit])
    }

    @Test func escapeClosesDetailsThenTreeThenClearsFilter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        state.press(.enter, .character("d"), .enter)
        #expect(state.showDetails && state.showDependencies && state.filter == "video")
        state.press(.escape)
        #expect(!state.showDetails && state.showDependencies)
        state.press(.escape)
        #expect(!state.showDependencies && state.filter == "video")
        state.press(.escape)
        #expect(state.filter.isEmpty)
    }

    @Test func sCyclesTheSortOrder() {
        var state = Fixtures.state(Fixtures.midRun())
        var seen: [SortOrder] = [state.sort]
        for _ in 0..<4 {
            state.press(.character("s"))
            seen.append(state.sort)
        }
        #expect(seen == [.id, .state, .progress, .rate, .id])
    }
}
