import OpsKit
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// The viewer's timing decisions, pure: the reconnect backoff, the heartbeat watchdog, and a
/// timer on a `ManualClock`.
@Suite struct ViewerTimingTests {
    @Test func theBackoffDoublesFromAQuarterSecondToFourSeconds() {
        var schedule = ReconnectSchedule()
        let waits = (0..<7).map { _ in schedule.take() }
        #expect(
            waits == [
                .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4),
            ])
    }

    @Test func aResetStartsTheBackoffOver() {
        var schedule = ReconnectSchedule()
        for _ in 0..<5 { _ = schedule.take() }
        schedule.reset()
        #expect(schedule.take() == .milliseconds(250))
        #expect(schedule.take() == .milliseconds(500))
    }

    @Test func aConnectionIsSilentSevenSecondsAfterItsLastDataAndNotBefore() {
        var watchdog = HeartbeatWatchdog(since: .seconds(10))
        #expect(watchdog.deadline == .seconds(17))
        #expect(!watchdog.isSilent(at: .milliseconds(16_999)))
        #expect(watchdog.isSilent(at: .seconds(17)))
        watchdog.heard(at: .seconds(12))
        #expect(!watchdog.isSilent(at: .seconds(17)))
        #expect(watchdog.deadline == .seconds(19))
        watchdog.heard(at: .seconds(11))
        #expect(watchdog.deadline == .seconds(19), "data read late does not move the deadline back")
    }

    @Test func aTimerIsDueOnceItsClockPassedItsDelay() {
        let clock = ManualClock()
        let timer = ViewerTimer(clock: clock, wakeup: WakePipe())
        timer.arm(after: .seconds(2))
        clock.advance(by: .milliseconds(1_999))
        #expect(!timer.takeDue())
        clock.advance(by: .milliseconds(1))
        #expect(timer.takeDue())
        #expect(!timer.takeDue(), "taking the mark disarms it")
    }

    @Test func armingAgainReplacesTheEarlierDeadlineAndCancelLeavesNothingScheduled() throws {
        let clock = ManualClock()
        let timer = ViewerTimer(clock: clock, wakeup: WakePipe())
        timer.arm(after: .seconds(2))
        timer.arm(after: .seconds(5))
        #expect(clock.pendingDeadlines == [.seconds(5)])
        clock.advance(by: .seconds(3))
        #expect(!timer.takeDue())
        timer.cancel()
        try clock.checkNoScheduledWork()
        clock.advance(by: .seconds(5))
        #expect(!timer.takeDue())
    }
}
