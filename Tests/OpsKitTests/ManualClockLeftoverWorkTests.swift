import OpsKit
import OpsKitTesting
import Testing

/// `ManualClock.checkNoScheduledWork()`: a test's teardown learns about timers nobody ran.
struct ManualClockLeftoverWorkTests {
    @Test func workNotYetDueIsReportedWithItsDeadlines() {
        let clock = ManualClock()
        clock.schedule(after: .seconds(3)) {}
        clock.schedule(after: .milliseconds(500)) {}
        clock.advance(by: .milliseconds(250))
        #expect(clock.pendingCount == 2)
        #expect(clock.pendingDeadlines == [.milliseconds(500), .seconds(3)])
        let leftover = ManualClock.LeftoverWork(now: .milliseconds(250), deadlines: [.milliseconds(500), .seconds(3)])
        #expect(throws: leftover) { try clock.checkNoScheduledWork() }
        #expect(
            leftover.description
                == "2 pieces of work still scheduled on the ManualClock at 0.25 s (due at 0.5 s, 3.0 s)")
    }

    @Test func runOrCancelledWorkIsNotLeftOver() throws {
        let clock = ManualClock()
        let ran = Recorder()
        clock.schedule(after: .seconds(1)) { ran.add("ran") }
        clock.schedule(after: .seconds(5)) { ran.add("never") }.cancel()
        clock.advance(by: .seconds(1))
        #expect(ran.all == ["ran"])
        try clock.checkNoScheduledWork()
    }
}
