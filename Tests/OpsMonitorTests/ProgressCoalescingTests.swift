import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// A dashboard's refresh applies only the newest of an operation's run of progress reports
/// (`ProgressCoalescer`): the picture is what applying every one would show, for one store
/// change instead of one a report; a retry's report is still applied, and a monitor whose
/// store records events applies every report.
@Suite(.ownThread) struct ProgressCoalescingTests {
    func runningFetch(recordEvents: Bool) throws -> (
        ObservableOperationQueue, QueueMonitor, FetchOperation, ManualClock
    ) {
        let clock = ManualClock()
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: recordEvents)
        let fetch = FetchOperation()
        fetch.name = "fetch"
        queue.addOperation(fetch)
        try #require(eventually { monitor.snapshot().counts.executing == 1 })
        return (queue, monitor, fetch, clock)
    }

    @Test func aRunOfReportsIsAppliedOnceAsTheNewest() throws {
        let (queue, monitor, fetch, clock) = try runningFetch(recordEvents: false)
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        let before = picture.version
        for completed in [100_000, 300_000, 600_000] as [Int64] {
            clock.advance(by: .seconds(1))
            fetch.reportProgress(completed: completed)
        }
        #expect(monitor.refresh(&picture, ifChangedSince: before))
        #expect(picture.version == before + 1, "three reports, one store change")
        let row = try #require(picture.operations.first)
        #expect(row.completedUnits == 600_000)
        #expect(picture.completedBytes == 600_000)
        #expect(row.unitsPerSecond == 200_000, "600 kB over the 3 s since it started")

        // A retry in the run: the report before it, the retry's and the newest are applied.
        fetch.reportProgress(completed: 650_000)
        fetch.reportAttemptFailed("connection reset", retryIn: .seconds(2))
        clock.advance(by: .seconds(2))
        fetch.reportProgress(completed: 700_000)
        let beforeRetry = picture.version
        #expect(monitor.refresh(&picture, ifChangedSince: beforeRetry))
        #expect(picture.version == beforeRetry + 2)
        let retried = try #require(picture.operations.first)
        #expect(retried.retries == 1 && retried.completedUnits == 700_000)
        #expect(retried.retryLog.count == 1)
        #expect(picture.sharedLog.contains { $0.kind == .retry })

        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func aReportHeldIsAppliedBeforeItsOperationsNextChange() throws {
        let (queue, monitor, fetch, clock) = try runningFetch(recordEvents: false)
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        clock.advance(by: .seconds(1))
        fetch.reportProgress(completed: 400_000)
        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(monitor.refresh(&picture, ifChangedSince: picture.version))
        let row = try #require(picture.operations.first)
        #expect(row.lifecycle == .finished && row.outcome == .succeeded)
        #expect(row.completedUnits == 1_000_000 && picture.completedBytes == 1_000_000)
    }

    @Test func everyReportIsAppliedWhenTheStoreRecordsEvents() throws {
        let (queue, monitor, fetch, clock) = try runningFetch(recordEvents: true)
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        _ = monitor.drainEvents()
        let before = picture.version
        for completed in [100_000, 300_000, 600_000] as [Int64] {
            clock.advance(by: .seconds(1))
            fetch.reportProgress(completed: completed)
        }
        #expect(monitor.refresh(&picture, ifChangedSince: before))
        #expect(picture.version == before + 3)
        let progressEvents = monitor.drainEvents().filter {
            if case .progress = $0 { return true }
            return false
        }
        #expect(progressEvents.count == 3)
        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func theCoalescerKeepsTheNewestAndTheOrderFirstHeld() {
        var coalescer = ProgressCoalescer()
        func report(_ ticket: UInt64, _ completed: Int64, retries: Int = 0) -> ProgressCoalescer.Report {
            let progress = OperationProgress(completed: completed, total: 100, unit: .bytes, retries: retries)
            return (ticket, progress, .seconds(completed))
        }
        #expect(coalescer.hold(report(7, 1)) == nil)
        #expect(coalescer.hold(report(3, 2)) == nil)
        #expect(coalescer.hold(report(7, 5)) == nil)
        #expect(coalescer.hold(report(7, 6, retries: 1))?.progress.completedUnitCount == 5)
        #expect(coalescer.take(3)?.progress.completedUnitCount == 2)
        #expect(coalescer.take(3) == nil)
        #expect(coalescer.hold(report(9, 8)) == nil)
        var all: [ProgressCoalescer.Report] = []
        coalescer.takeAll { all.append($0) }
        #expect(all.map(\.ticket) == [7, 9])
        #expect(coalescer.isEmpty)
    }

    @Test func manyOperationsAreFoundByTicketAsFewAre() {
        var coalescer = ProgressCoalescer()
        let count = UInt64(ProgressCoalescer.scanLimit * 2)
        func report(_ ticket: UInt64, _ completed: Int64) -> ProgressCoalescer.Report {
            (ticket, OperationProgress(completed: completed, total: 100, unit: .bytes), .seconds(completed))
        }
        for ticket in 0..<count { #expect(coalescer.hold(report(ticket * 3, 1)) == nil) }
        for ticket in 0..<count { #expect(coalescer.hold(report(ticket * 3, 2)) == nil) }
        #expect(coalescer.take(3 * 5)?.progress.completedUnitCount == 2)
        #expect(coalescer.take(3 * 5) == nil)
        #expect(coalescer.take(1) == nil)
        #expect(coalescer.hold(report(3 * 5, 3)) == nil)
        var all: [ProgressCoalescer.Report] = []
        coalescer.takeAll { all.append($0) }
        #expect(all.map(\.ticket) == (0..<count).map { $0 * 3 })
        #expect(all.map(\.progress.completedUnitCount) == (0..<count).map { $0 == 5 ? 3 : 2 })
        #expect(coalescer.isEmpty)
    }
}
