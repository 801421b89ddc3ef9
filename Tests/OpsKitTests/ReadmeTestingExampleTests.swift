import OpsKitTesting
import Testing

/// README "Testing your operations": the example as written there.
struct ReadmeTestingExampleTests {
    @Test func downloadFinishesAfterOneSecond() async throws {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let download = DownloadOperation(name: "a", plan: TransferPlan(totalBytes: 100, bandwidth: 100), clock: clock)
        queue.addOperation(download)
        #expect(await eventually { clock.pendingCount > 0 })  // the queue started it on its own thread
        clock.advance(by: .seconds(1))
        #expect(await eventually { download.isFinished })
        try clock.checkNoScheduledWork()
    }
}
