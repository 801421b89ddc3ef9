import OpsKitTesting
import Testing

/// `ManualClock.run(_:step:until:)`: virtual time moves only while the queue is settled.
@Suite(.ownThread) struct ClockDriveTests {
    /// Three one-second transfers, one at a time, each starting only once the one before it
    /// finished, with 100 ms of latency first.
    private func serialDownloads(_ clock: ManualClock) -> (ObservableOperationQueue, [DownloadOperation]) {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let plan = TransferPlan(totalBytes: 100, bandwidth: 100, latency: .milliseconds(100), chunkBytes: 100)
        let downloads = (0..<3).map { DownloadOperation(name: "d\($0)", plan: plan, clock: clock) }
        queue.addOperations(downloads, waitUntilFinished: false)
        queue.isSuspended = false
        return (queue, downloads)
    }

    @Test func eachOperationStartsWhenTheOneBeforeItFinished() throws {
        let clock = ManualClock()
        let (queue, downloads) = serialDownloads(clock)
        // A step far longer than a transfer: time still stops at each finish, because the next
        // operation's work is scheduled only once the queue started it.
        #expect(clock.run(queue, step: .seconds(10)) { downloads.allSatisfy(\.isFinished) })
        #expect(clock.now == .milliseconds(3 * 1_100))
        #expect(downloads.allSatisfy { $0.outcome?.isSucceeded == true })
        try clock.checkNoScheduledWork()
    }

    @Test func theAsyncFormRunsTheSameTimeline() async throws {
        let clock = ManualClock()
        let (queue, downloads) = serialDownloads(clock)
        #expect(await clock.run(queue, step: .seconds(10)) { downloads.allSatisfy(\.isFinished) })
        #expect(clock.now == .milliseconds(3 * 1_100))
        #expect(await clock.waitUntilSettled(queue))
        try clock.checkNoScheduledWork()
    }

    @Test func itGivesUpAfterMaxSteps() {
        let clock = ManualClock()
        let (queue, downloads) = serialDownloads(clock)
        #expect(!clock.run(queue, step: .seconds(10), maxSteps: 2) { downloads.allSatisfy(\.isFinished) })
        #expect(clock.waitUntilSettled(queue))
        #expect(!downloads[2].isFinished)
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
    }
}
