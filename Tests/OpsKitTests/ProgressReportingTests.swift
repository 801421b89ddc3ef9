import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

/// A user's own operation that reports progress, as docs/EMBEDDING.md shows it.
class PagesOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    let kind = OperationKind.process
    let progressStorage = ProgressStorage(total: 10, unit: .items)
}

/// A subclass of a reporter: conforms through its superclass.
final class ChapterOperation: PagesOperation, @unchecked Sendable {}

/// An operation whose work reports through Foundation's `Progress`.
final class FoundationProgressOperation: AsyncOperation, ProgressReportingOperation, ProgressReporting,
    @unchecked Sendable
{
    let kind = OperationKind.download
    let progressStorage = ProgressStorage(unit: .bytes)
    let progress = Progress(totalUnitCount: 2_000)
}

@Suite struct ProgressReportingTests {
    @Test func reportsArePublishedAsOneValueToObservers() {
        let op = PagesOperation()
        let recorder = Recorder()
        let token = op.observe(\.reportedProgress, options: [.new]) { _, change in
            guard let p = change.newValue else { return }
            recorder.add(
                "\(p.completedUnitCount)/\(p.totalUnitCount) \(p.unit) r\(p.retries) \(p.retryDelay.map { "\($0)" } ?? "-")"
            )
        }
        op.reportProgress(completed: 3)
        op.reportProgress(completed: 3)  // unchanged: not published again
        op.reportAttemptFailed("timeout", retryIn: .seconds(2))
        op.reportProgress(completed: 4, total: 12)
        #expect(
            recorder.all == [
                "3/10 items r0 -", "3/10 items r1 2.0 seconds", "4/12 items r1 -",
            ])
        #expect(op.retryLog == ["attempt 1 failed at 30%: timeout"])
        #expect(op.reportedProgress.fractionCompleted == 4.0 / 12.0)
        token.invalidate()
    }

    @Test func reportsAfterTheOperationFinishedAreIgnored() {
        let op = PagesOperation()
        op.reportProgress(completed: 4)
        op.cancel()
        op.start()  // cancelled before it ran: finishes at once
        #expect(op.isFinished)
        let recorder = Recorder()
        let token = op.observe(\.reportedProgress, options: [.new]) { _, change in
            recorder.add("\(change.newValue?.completedUnitCount ?? -1)")
        }
        // Work that was not told to stop keeps reporting, like a late `finish` call.
        op.reportProgress(completed: 10)
        op.reportAttemptFailed("reset", retryIn: .seconds(1))
        op.updateProgress { $0.completedUnitCount = 9 }
        #expect(recorder.all.isEmpty, "nothing is published after the finish")
        #expect(op.reportedProgress.completedUnitCount == 4, "the progress stays what it was at the finish")
        #expect(op.retryLog.isEmpty)
        token.invalidate()
    }

    @Test func aFailedAttemptWithoutRetryOnlyLogs() {
        let op = PagesOperation()
        op.reportAttemptFailed("disk full", retryIn: nil)
        #expect(op.retryLog == ["attempt 1 failed at 0%: disk full"])
        #expect(op.reportedProgress.retries == 0 && op.reportedProgress.retryDelay == nil)
    }

    @Test func foundationProgressCountsArePublished() {
        let op = FoundationProgressOperation()
        let seen = Recorder()
        let token = op.observeProgress { _, p in seen.add("\(p.completedUnitCount)/\(p.totalUnitCount)") }
        op.progress.completedUnitCount = 500
        op.publishFoundationProgress()
        let indeterminate = Progress(totalUnitCount: -1)
        indeterminate.completedUnitCount = 7
        op.reportProgress(of: indeterminate)
        #expect(seen.all == ["500/2000", "7/0"])
        #expect(op.reportedProgress.unit == .bytes)
        token.invalidate()
    }

    @Test func theLookupAnswersPerClassAndAgreesWithACast() {
        let operations: [Operation] = [
            PagesOperation(), ManualOperation(name: "plain"), ChapterOperation(), BlockOperation {},
            DownloadOperation(name: "d", plan: TransferPlan(totalBytes: 1, bandwidth: 1), clock: ManualClock()),
        ]
        for _ in 0..<3 {  // the first round fills the cache, the others read it
            for op in operations {
                #expect(ProgressReporterLookup.reportsProgress(op) == (op is any ProgressReportingOperation))
                #expect((op.progressReporter != nil) == (op is any ProgressReportingOperation))
            }
        }
        #expect(operations.filter { ProgressReporterLookup.reportsProgress($0) }.count == 3)
    }

    @Test func aSubclassOfAReporterIsObservableToo() {
        let op = ChapterOperation()
        let seen = Recorder()
        let token = op.observe(\.reportedProgress, options: [.new]) { _, change in
            seen.add("\(change.newValue?.completedUnitCount ?? -1)")
        }
        op.reportProgress(completed: 2)
        #expect(seen.all == ["2"])
        token.invalidate()
    }
}
