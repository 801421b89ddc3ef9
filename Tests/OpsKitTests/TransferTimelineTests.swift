import OpsKitTesting
import Testing
@testable import OpsKit

@Suite struct TransferTimelineTests {
    /// 10 MB at 1 MB/s in 100 KB chunks; attempts fail at 50%; 2 retries; backoff 1 s.
    func tenMegabytes(failingAttempts: Int?) -> (DownloadOperation, ManualClock, Recorder) {
        let clock = ManualClock()
        let plan = TransferPlan(
            totalBytes: 10_000_000, bandwidth: 1_000_000,
            failure: FailurePlan(atFraction: 0.5, message: "connection reset", failingAttempts: failingAttempts),
            maxRetries: 2, retryBackoff: .seconds(1), chunkBytes: 100_000)
        let op = DownloadOperation(name: "big", plan: plan, clock: clock)
        let recorder = Recorder()
        return (op, clock, recorder)
    }

    @Test func failureAtHalfThenRetryResumesAndSucceedsAtExactTimes() {
        let (op, clock, recorder) = tenMegabytes(failingAttempts: 1)
        let token = op.observe(\.reportedProgress, options: [.new]) { _, change in
            guard let p = change.newValue else { return }
            recorder.add("\(clock.now) \(p.completedUnitCount) r\(p.retries)")
        }
        op.start()
        clock.advance(by: .seconds(5))
        #expect(op.completedBytes == 5_000_000)
        #expect(op.retryLog == ["attempt 1 failed at 50%: connection reset"])
        #expect(op.reportedProgress.retries == 1)
        #expect(op.bytesPerSecond == 0, "no rate while backing off")
        #expect(op.reportedProgress.retryDelay == .seconds(1), "the back-off is published")
        #expect(op.reportedProgress.unitsPerSecond == 0)
        clock.advance(by: .seconds(1))  // backoff: 1 s × 2^0
        #expect(op.reportedProgress.retryDelay == nil, "the next attempt started")
        #expect(op.completedBytes == 5_000_000, "the retry starts at 6 s; its first chunk lands at 6.1 s")
        clock.advance(by: .milliseconds(100))
        #expect(op.completedBytes == 5_100_000)
        #expect(op.bytesPerSecond == 1_000_000)
        clock.advance(by: .milliseconds(4_899))
        #expect(!op.isFinished)
        clock.advance(by: .milliseconds(1))
        #expect(op.isFinished)
        #expect(op.outcome?.isSucceeded == true)
        #expect(clock.now == .seconds(11))
        let lines = recorder.all
        #expect(lines.first == "0.1 seconds 100000 r0")
        #expect(lines.contains("5.0 seconds 5000000 r0"))
        #expect(lines.contains("5.0 seconds 5000000 r1"))
        #expect(lines.last == "11.0 seconds 10000000 r1")
        #expect(throws: Never.self) { try clock.checkNoScheduledWork() }
        _ = token
    }

    @Test func everyAttemptFailingExhaustsTheRetriesAndFails() {
        let (op, clock, _) = tenMegabytes(failingAttempts: nil)
        op.start()
        clock.advance(by: .seconds(5))
        #expect(op.reportedProgress.retries == 1)
        clock.advance(by: .milliseconds(1_100))  // retry 1 at 6.0 s, fails when its chunk would land: 6.1 s
        #expect(op.reportedProgress.retries == 2)
        clock.advance(by: .seconds(2))  // backoff 2 s → retry 2 at 8.1 s
        #expect(!op.isFinished)
        clock.advance(by: .milliseconds(100))  // fails at 8.2 s, no retries left
        #expect(op.isFinished)
        #expect(clock.now == .milliseconds(8_200))
        guard case .failed(let error)? = op.outcome else {
            Issue.record("expected failure, got \(String(describing: op.outcome))")
            return
        }
        #expect("\(error)" == "connection reset")
        #expect(
            op.retryLog == [
                "attempt 1 failed at 50%: connection reset",
                "attempt 2 failed at 50%: connection reset",
                "attempt 3 failed at 50%: connection reset",
            ])
        #expect(op.completedBytes == 5_000_000)
        #expect(throws: Never.self) { try clock.checkNoScheduledWork() }
    }

    @Test func sameSeedSameTimingsWithJitter() {
        func run(seed: UInt64) -> [String] {
            let clock = ManualClock()
            let op = UploadOperation(
                name: "u",
                plan: TransferPlan(
                    totalBytes: 1_000, bandwidth: 1_000, latency: .milliseconds(50), jitter: 0.3, chunkBytes: 100),
                clock: clock, random: SeededGenerator(seed: seed))
            let recorder = Recorder()
            let token = op.observe(\.completedBytes, options: [.new]) { _, _ in recorder.add("\(clock.now)") }
            op.start()
            clock.advance(by: .seconds(10))
            _ = token
            return recorder.all
        }
        #expect(run(seed: 1) == run(seed: 1))
        #expect(run(seed: 1) != run(seed: 2))
        #expect(run(seed: 1).count == 10)
    }

    @Test func manualClockRunsWorkInDeadlineThenInsertionOrder() {
        let clock = ManualClock()
        let recorder = Recorder()
        clock.schedule(after: .seconds(2)) { recorder.add("b@\(clock.now)") }
        clock.schedule(after: .seconds(1)) { recorder.add("a@\(clock.now)") }
        clock.schedule(after: .seconds(2)) { recorder.add("c@\(clock.now)") }
        clock.schedule(after: .seconds(1)) {
            clock.schedule(after: .milliseconds(500)) { recorder.add("nested@\(clock.now)") }
        }
        let cancelled = clock.schedule(after: .seconds(1)) { recorder.add("cancelled") }
        cancelled.cancel()
        clock.advance(by: .seconds(3))
        #expect(recorder.all == ["a@1.0 seconds", "nested@1.5 seconds", "b@2.0 seconds", "c@2.0 seconds"])
        #expect(clock.now == .seconds(3))
    }

    @Test func aFailingProcessStepFailsAtTheEndOfItsDuration() {
        let clock = ManualClock()
        let op = ProcessOperation(
            name: "filter", duration: .seconds(2), failure: FailurePlan(atFraction: 1, message: "corrupt image"),
            clock: clock)
        op.start()
        clock.advance(by: .milliseconds(1_999))
        #expect(!op.isFinished)
        clock.advance(by: .milliseconds(1))
        #expect(op.isFinished)
        #expect(op.outcome?.isFailed == true)
        #expect(op.outcome?.description == "failed: corrupt image")
        #expect(throws: Never.self) { try clock.checkNoScheduledWork() }
    }
}
