import Foundation
import OpsKit
import Synchronization
import Testing

/// A paused `LiveClock` stands still and holds scheduled work; resuming goes on from there.
@Suite struct LiveClockPauseTests {
    @Test func timeStandsStillWhilePausedAndGoesOnFromThereAfter() {
        let clock = LiveClock(speed: 1000)
        clock.pause()
        #expect(clock.isPaused)
        let frozen = clock.now
        var spin = 0
        for _ in 0..<100_000 { spin &+= 1 }  // wall time passes; simulated time must not
        #expect(clock.now == frozen, "\(spin)")
        clock.resume()
        #expect(!clock.isPaused)
        let after = clock.now
        #expect(after >= frozen)
        #expect(after - frozen < .seconds(60), "the pause was counted as running time")
    }

    @Test func aClockMadePausedStandsAtZeroUntilResumed() {
        let clock = LiveClock(speed: 10_000, paused: true)
        #expect(clock.isPaused)
        var spin = 0
        for _ in 0..<100_000 { spin &+= 1 }  // wall time passes; simulated time must not
        #expect(clock.now == .zero, "\(spin)")
        clock.resume()
        #expect(!clock.isPaused)
    }

    @Test func workDueDuringAPauseRunsOnlyAfterIt() {
        let clock = LiveClock(speed: 1000)
        let ran = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        clock.pause()
        clock.schedule(after: .zero) {
            ran.store(true, ordering: .relaxed)
            done.signal()
        }
        // The work falls due at once; a paused clock holds it (this wait is the test's bound).
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
        let ranWhilePaused = ran.load(ordering: .relaxed)
        #expect(!ranWhilePaused)
        clock.resume()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let ranAfter = ran.load(ordering: .relaxed)
        #expect(ranAfter)
    }
}
