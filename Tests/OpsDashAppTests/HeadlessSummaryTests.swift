import OpsMonitor
import Testing

@testable import OpsDashApp

/// The headless summary line's `duration`.
struct HeadlessSummaryTests {
    @Test func aFinishedRunLastsUntilItsLastOperationFinished() {
        let snapshot = QueueSnapshot(
            time: .seconds(40), counts: StateCounts(succeeded: 2), drainedAt: .milliseconds(31_250))
        let line = HeadlessRunner.summaryLine(snapshot, interrupted: false)
        #expect(line.hasPrefix(#"{"t":40.000,"#), "\(line)")
        #expect(line.contains(#""duration":31.250,"#), "\(line)")
    }

    @Test func anUnfinishedRunLastsUntilItStopped() {
        let snapshot = QueueSnapshot(time: .seconds(12), counts: StateCounts(executing: 1, succeeded: 1))
        #expect(HeadlessRunner.summaryLine(snapshot, interrupted: true).contains(#""duration":12.000,"#))
    }
}
