import OpsDashUI
import OpsMonitor
import Testing

@Suite struct HeaderContentTests {
    @Test func evictedCountShowsOnlyWhenNonZero() {
        let plain = render(Fixtures.state(Fixtures.midRun()))
        #expect(!plain.lines[1].contains("evicted"))
        var snapshot = Fixtures.midRun()
        snapshot.evictedCount = 250
        let evicted = render(Fixtures.state(snapshot))
        #expect(evicted.lines[1].hasSuffix("total 12  evicted 250"))
    }

    @Test func theCancelAllQuestionGoesAwayWhenNothingIsLeftToCancel() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("C"))
        let done = OperationSnapshot(id: 1, name: "a", lifecycle: .finished, outcome: .succeeded)
        _ = reduce(&state, .tick(Fixtures.snapshot([done], version: 2)))
        #expect(state.prompt == nil)
    }

    @Test func anUnlimitedQueueShowsInfinity() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = -1
        #expect(render(Fixtures.state(snapshot)).lines[0].contains("running 3/∞"))
        let ascii = render(Fixtures.state(snapshot, glyphs: .ascii))
        #expect(ascii.lines[0].contains("running 3/max"))
    }
}
