import Testing

@testable import OpsMonitor

@Suite struct UntilWatchTests {
    private func watch(_ text: String) throws -> UntilWatch {
        UntilWatch(try UntilCondition.parseList(text))
    }

    @Test func aCountFiresOnceItHoldsWithItsValue() throws {
        var watch = try watch("failed>0")
        #expect(watch.observe(StateCounts(executing: 2, succeeded: 1), at: .seconds(1)) == nil)
        let firing = watch.observe(StateCounts(executing: 1, succeeded: 1, failed: 2), at: .seconds(2))
        #expect(firing?.condition == .count(.failed, .greater, 0))
        #expect(firing?.count == 2)
        #expect(firing?.time == .seconds(2))
        #expect(firing?.stalledFor == nil)
    }

    @Test func theFirstConditionListedThatHoldsIsTheOneReported() throws {
        var watch = try watch("succeeded>=1, running==1")
        let firing = watch.observe(StateCounts(executing: 1, succeeded: 1), at: .seconds(3))
        #expect(firing?.condition == .count(.succeeded, .greaterOrEqual, 1))
    }

    @Test func runningAndUnfinishedCountWhatTheStreamCalls() throws {
        let counts = StateCounts(waiting: 3, ready: 2, executing: 4, succeeded: 1)
        #expect(UntilCount.running.value(in: counts) == 4)
        #expect(UntilCount.unfinished.value(in: counts) == 9)
        #expect(UntilCount.total.value(in: counts) == 10)
    }

    @Test func aStallIsTimedFromTheLastFinishWhileWorkIsUnfinished() throws {
        var watch = try watch("stalled>60s")
        #expect(watch.observe(StateCounts(ready: 5), at: .seconds(10)) == nil)
        #expect(watch.observe(StateCounts(ready: 4, succeeded: 1), at: .seconds(50)) == nil)
        // 60 s since the last finish is not more than 60 s.
        #expect(watch.observe(StateCounts(ready: 4, succeeded: 1), at: .seconds(110)) == nil)
        let firing = watch.observe(StateCounts(ready: 4, succeeded: 1), at: .milliseconds(110_500))
        #expect(firing?.condition == .stalled(seconds: 60, orEqual: false))
        #expect(firing?.stalledFor == .milliseconds(60_500))
    }

    @Test func atLeastFiresAtTheLimit() throws {
        var watch = try watch("stalled>=60s")
        #expect(watch.observe(StateCounts(ready: 1), at: .zero) == nil)
        #expect(watch.observe(StateCounts(ready: 1), at: .seconds(60))?.stalledFor == .seconds(60))
    }

    @Test func nothingUnfinishedIsNoStallAndNewWorkStartsTheTimeAfresh() throws {
        var watch = try watch("stalled>10s")
        #expect(watch.observe(StateCounts(succeeded: 3), at: .seconds(0)) == nil)
        #expect(watch.observe(StateCounts(succeeded: 3), at: .seconds(100)) == nil)
        #expect(watch.observe(StateCounts(ready: 1, succeeded: 3), at: .seconds(200)) == nil)
        #expect(watch.observe(StateCounts(ready: 1, succeeded: 3), at: .seconds(210)) == nil)
        #expect(watch.observe(StateCounts(ready: 1, succeeded: 3), at: .seconds(211)) != nil)
    }
}
