import OpsDashUI
import OpsMonitor
import Testing

/// Pausing the queue and stepping its concurrency limit.
@Suite struct QueueControlKeyTests {
    @Test func pAndSpaceToggleSuspension() {
        var running = Fixtures.state(Fixtures.midRun())
        #expect(running.press(.character("p")) == [.setSuspended(true)])
        var spaced = Fixtures.state(Fixtures.midRun())
        #expect(spaced.press(.character(" ")) == [.setSuspended(true)])
        var paused = Fixtures.state(Fixtures.midRun(suspended: true))
        #expect(paused.press(.character("p")) == [.setSuspended(false)])
    }

    /// Keys pressed faster than pictures arrive (a held-down key, an attached app) each toggle
    /// from what the previous press asked for, not from the last picture.
    @Test func pressesBeforeThePictureCatchesUpEachToggle() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("p")) == [.setSuspended(true)])
        #expect(state.press(.character("p")) == [.setSuspended(false)])
        #expect(state.press(.character("p")) == [.setSuspended(true)])
        // A picture from before the first press leaves the request standing…
        _ = reduce(&state, .tick(Fixtures.midRun(version: 2)))
        #expect(state.effectiveSuspended)
        // …one showing the queue paused confirms it; a refusal forgets it.
        _ = reduce(&state, .tick(Fixtures.midRun(suspended: true, version: 3)))
        #expect(state.pendingSuspended == nil && state.effectiveSuspended)
        #expect(state.press(.character("p")) == [.setSuspended(false)])
        _ = reduce(&state, .refused("refused: not connected (disconnected)"))
        #expect(state.pendingSuspended == nil && state.effectiveSuspended)
    }

    @Test func plusAndMinusChangeConcurrencyAndShowItAtOnce() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(4)])
        #expect(state.effectiveConcurrency == 4)
        #expect(state.press(.character("=")) == [.setMaxConcurrentOperationCount(5)])
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(4)])
        // A snapshot still showing the old limit does not undo the request…
        _ = reduce(&state, .tick(Fixtures.midRun(version: 2)))
        #expect(state.effectiveConcurrency == 4)
        #expect(state.pendingConcurrency == 4)
        // …one confirming it clears the override.
        var confirmed = Fixtures.midRun(version: 3)
        confirmed.maxConcurrentOperationCount = 4
        _ = reduce(&state, .tick(confirmed))
        #expect(state.pendingConcurrency == nil)
        #expect(state.effectiveConcurrency == 4)
    }

    /// A refusal forgets only what the refused command asked for: `+` presses after a refused
    /// cancel (or a refused older limit) still count from the last one.
    @Test func aRefusedCancelOrOlderLimitLeavesTheLimitAskedForSinceStanding() {
        var state = Fixtures.state(Fixtures.midRun())
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(4)])
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(5)])
        let notFound = "refused: no unfinished operation #9 (not_found)"
        _ = reduce(&state, .refused(notFound, command: .cancel(operationID: 9)))
        _ = reduce(&state, .refused("refused: busy", command: .setMaxConcurrentOperationCount(4)))
        #expect(state.message == "refused: busy")
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(6)])
        _ = reduce(&state, .refused("refused: busy", command: .setMaxConcurrentOperationCount(6)))
        #expect(state.pendingConcurrency == nil && state.effectiveConcurrency == 3)
    }

    @Test func concurrencyStopsAtOneAndSaysSo() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 2
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(1)])
        #expect(state.message == nil)
        #expect(state.press(.character("-")).isEmpty)
        #expect(state.effectiveConcurrency == 1)
        #expect(state.message == "concurrency limit already at the minimum (1)")
    }

    @Test func concurrencyStopsAtTheTopOfTheFlagRangeAndSaysSo() {
        #expect(concurrencyRange == 1...1024)
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 1023
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(1024)])
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.effectiveConcurrency == 1024)
        #expect(state.message == "concurrency limit already at the maximum (1024)")
    }

    @Test(arguments: [2, 64, 65, 100, 1024, 5000])
    func plusNeverLowersAndMinusNeverRaisesTheLimit(limit: Int) {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = limit
        var up = Fixtures.state(snapshot)
        for command in up.press(.character("+")) {
            guard case .setMaxConcurrentOperationCount(let next) = command else { continue }
            #expect(next > limit, "+ at \(limit) asked for \(next)")
        }
        #expect(up.effectiveConcurrency >= limit)
        var down = Fixtures.state(snapshot)
        #expect(down.press(.character("-")) == [.setMaxConcurrentOperationCount(limit - 1)])
    }

    @Test func plusAboveSixtyFourRaisesTheLimit() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 100
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")) == [.setMaxConcurrentOperationCount(101)])
    }

    @Test func aLimitAboveTheRangeStaysOnPlus() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = 5000
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.effectiveConcurrency == 5000)
        #expect(state.message == "concurrency limit 5000 is above what + sets (1024)")
    }

    @Test func anUnlimitedQueueStepsDownToTheTopOfTheRange() {
        var snapshot = Fixtures.midRun()
        snapshot.maxConcurrentOperationCount = -1
        var state = Fixtures.state(snapshot)
        #expect(state.press(.character("+")).isEmpty)
        #expect(state.message == "the queue has no concurrency limit")
        #expect(state.press(.character("-")) == [.setMaxConcurrentOperationCount(1024)])
    }
}
