import Foundation
import OpsKit
import OpsKitTesting
@testable import OpsWire
import Testing
@testable import OpsMonitor

/// A user's own operation: it adopts `ProgressReportingOperation` and reports as its work moves
/// (here, when the test says so). Nothing in OpsMonitor knows this class.
final class FetchOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    let kind = OperationKind.download
    let progressStorage = ProgressStorage(total: 1_000_000, unit: .bytes)
    override func execute() {}  // the test reports and finishes
}

/// Counts items, not bytes.
final class IndexOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    let kind = OperationKind.process
    let progressStorage = ProgressStorage(total: 40, unit: .items)
    override func execute() {}  // the test reports and finishes
}

/// A user-defined operation shows kind, bytes, rate and retry waits in the monitor, and
/// `progress` lines in headless output.
@Suite(.ownThread) struct CustomProgressTests {
    @Test func aCustomOperationShowsBytesRateKindAndRetryWait() throws {
        let clock = ManualClock()
        let fetch = FetchOperation()
        fetch.name = "fetch"
        let (queue, monitor) = try #require(running([fetch], clock: clock))
        var row = try #require(monitor.snapshot().operations.first)
        #expect(row.kind == .download && row.unit == .bytes && row.totalUnits == 1_000_000)
        #expect(fetch.keyValueObservers.isObserved("reportedProgress"), "watched while it runs")

        clock.advance(by: .seconds(1))
        fetch.reportProgress(completed: 250_000)
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.completedUnits == 250_000)
        #expect(row.unitsPerSecond == 250_000, "derived on the monitor's clock: 250 kB over 1 s")
        #expect(monitor.snapshot().bytesPerSecond == 250_000)

        clock.advance(by: .seconds(1))
        fetch.reportProgress(completed: 750_000)
        #expect(monitor.snapshot().operations.first?.unitsPerSecond == 500_000)

        fetch.reportAttemptFailed("connection reset", retryIn: .seconds(3))
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.lifecycle == .executing)
        #expect(row.nextAttemptAt == .seconds(5), "failed at 2 s, next attempt 3 s later")
        #expect(row.retries == 1 && row.unitsPerSecond == 0)
        #expect(row.retryLog == ["attempt 1 failed at 75%: connection reset"])

        clock.advance(by: .seconds(3) + .milliseconds(500))
        fetch.reportProgress(completed: 800_000)
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.nextAttemptAt == nil, "a report ends the wait")
        #expect(row.unitsPerSecond == 100_000, "measured from the next attempt's start: 50 kB over 0.5 s")

        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.outcome == .succeeded && row.completedUnits == 1_000_000)
        #expect(!fetch.keyValueObservers.hasObservers, "no subscription once finished")
    }

    @Test func headlessOutputHasProgressLinesForIt() throws {
        let clock = ManualClock()
        let fetch = FetchOperation()
        fetch.name = "fetch"
        let (queue, monitor) = try #require(running([fetch], clock: clock))
        clock.advance(by: .seconds(1))
        fetch.reportProgress(completed: 400_000)
        clock.advance(by: .seconds(1))
        fetch.reportProgress(completed: 1_000_000)
        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        var encoder = JSONLinesEncoder()
        var output = ""
        for event in monitor.drainEvents() { encoder.encode(event, into: &output) }
        let lines = output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                #"{"t":0.000,"event":"added","id":1,"op":"fetch","kind":"download","unit":"bytes","total":1000000,"after":[]}"#
            ))
        #expect(
            lines.contains(
                #"{"t":1.000,"event":"progress","id":1,"op":"fetch","bytes":400000,"total":1000000,"rate":400000,"retries":0}"#
            ))
        #expect(
            lines.contains(
                #"{"t":2.000,"event":"progress","id":1,"op":"fetch","bytes":1000000,"total":1000000,"rate":600000,"retries":0}"#
            ))
        #expect(lines.last?.contains(#""to":"finished","outcome":"succeeded""#) == true)
    }

    @Test func itemsAreShownButNotAddedToTheQueueByteTotals() throws {
        let clock = ManualClock()
        let index = IndexOperation()
        let (queue, monitor) = try #require(running([index], clock: clock))
        clock.advance(by: .seconds(2))
        index.reportProgress(completed: 10)
        let snapshot = monitor.snapshot()
        let row = try #require(snapshot.operations.first)
        #expect(row.unit == .items && row.kind == .process)
        #expect(row.completedUnits == 10 && row.totalUnits == 40 && row.unitsPerSecond == 5)
        #expect(snapshot.totalBytes == 0 && snapshot.completedBytes == 0 && snapshot.bytesPerSecond == 0)
        index.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        #expect(monitor.snapshot().totalBytes == 0)
    }

    /// A simulated processing step counts work units (items), like a user's own: its units are
    /// not bytes, so the queue's byte totals leave them out.
    @Test func aSimulatedProcessingStepCountsItemsNotBytes() throws {
        let clock = ManualClock()
        let step = ProcessOperation(name: "resize", duration: .seconds(2), clock: clock)
        let (queue, monitor) = try #require(running([step], clock: clock))
        let row = try #require(monitor.snapshot().operations.first)
        #expect(row.unit == .items && row.kind == .process && row.totalUnits == 2_000)
        #expect(monitor.snapshot().totalBytes == 0)
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func aSimulatedTransferWaitingToRetryCarriesWhenItsNextAttemptStarts() throws {
        let clock = ManualClock()
        let plan = TransferPlan(
            totalBytes: 1_000, bandwidth: 1_000,
            failure: FailurePlan(atFraction: 0.5, message: "reset", failingAttempts: 1),
            maxRetries: 1, retryBackoff: .seconds(2), chunkBytes: 100)
        let download = DownloadOperation(name: "d", plan: plan, clock: clock)
        let (queue, monitor) = try #require(running([download], clock: clock))
        #expect(eventually { clock.pendingCount > 0 }, "its first chunk is scheduled")
        clock.advance(by: .milliseconds(500))  // fails at 50%: 0.5 s
        var row = try #require(monitor.snapshot().operations.first)
        #expect(row.nextAttemptAt == .milliseconds(2_500))
        #expect(row.retries == 1 && row.unitsPerSecond == 0)
        clock.advance(by: .seconds(2))
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.nextAttemptAt == nil, "the retry started at 2.5 s")
        clock.advance(by: .seconds(1))
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        #expect(monitor.snapshot().operations.first?.outcome == .succeeded)
    }
}
