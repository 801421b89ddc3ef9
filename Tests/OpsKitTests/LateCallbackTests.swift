import Testing
@testable import OpsKit

/// A clock whose scheduled work runs `lateness` after it was due, like a callback on a busy
/// machine or on a clock sped up far; time itself is a `ManualClock`'s.
private final class LateClock: SimulationClock {
    let base = ManualClock()
    let lateness: Duration

    init(lateness: Duration) {
        self.lateness = lateness
    }

    var now: Duration { base.now }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        base.schedule(after: delay + lateness, work)
    }
}

/// A simulated transfer's steps are due at planned times, however late their callbacks run:
/// lateness does not add up over the chunks, latency and back-off of a transfer.
@Suite struct LateCallbackTests {
    @Test func lateChunksDoNotStretchATransfer() {
        // 1 MB at 1 MB/s in 100 KB chunks: ten chunks due every 0.1 s, each run 30 ms late.
        let clock = LateClock(lateness: .milliseconds(30))
        let plan = TransferPlan(totalBytes: 1_000_000, bandwidth: 1_000_000, chunkBytes: 100_000)
        let op = DownloadOperation(name: "late", plan: plan, clock: clock)
        op.start()
        clock.base.advance(by: .milliseconds(1_029))
        #expect(!op.isFinished)
        clock.base.advance(by: .milliseconds(1))
        #expect(op.isFinished, "due at 1.0 s, run 30 ms late; not 10 × 130 ms")
        #expect(op.completedBytes == 1_000_000)
        #expect(throws: Never.self) { try clock.base.checkNoScheduledWork() }
    }

    @Test func lateLatencyAndBackOffDoNotStretchARetriedTransfer() {
        // Latency 0.2 s, 1 MB at 1 MB/s in 100 KB chunks, the first attempt failing at 50%,
        // a 1 s back-off: planned end 0.2 + 0.5 + 1 + 0.2 + 0.5 = 2.4 s; 13 steps, each 30 ms late.
        let clock = LateClock(lateness: .milliseconds(30))
        let plan = TransferPlan(
            totalBytes: 1_000_000, bandwidth: 1_000_000, latency: .milliseconds(200),
            failure: FailurePlan(atFraction: 0.5, message: "reset", failingAttempts: 1), maxRetries: 1,
            retryBackoff: .seconds(1), chunkBytes: 100_000)
        let op = DownloadOperation(name: "late", plan: plan, clock: clock)
        op.start()
        clock.base.advance(by: .milliseconds(2_429))
        #expect(!op.isFinished)
        #expect(op.reportedProgress.retries == 1)
        clock.base.advance(by: .milliseconds(1))
        #expect(op.isFinished, "due at 2.4 s, run 30 ms late; not 2.4 s + 13 × 30 ms")
        #expect(op.outcome?.isSucceeded == true)
        #expect(throws: Never.self) { try clock.base.checkNoScheduledWork() }
    }
}
