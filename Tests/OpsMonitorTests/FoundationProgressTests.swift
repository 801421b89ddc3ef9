import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor
@testable import OpsWire

/// An app's operation that reports through Foundation's `ProgressReporting`: nothing in it
/// knows OpsKit's progress protocol. The test moves its `Progress` and finishes it.
final class ProgressReportingFileOperation: AsyncOperation, ProgressReporting, @unchecked Sendable {
    let progress: Progress

    init(total: Int64, file kind: Progress.FileOperationKind?) {
        progress = Progress(totalUnitCount: total)
        if let kind {
            progress.kind = .file
            progress.setUserInfoObject(kind, forKey: .fileOperationKindKey)
        }
        super.init()
    }

    override func execute() {}  // the test moves the progress and finishes
}

/// A class the app can't change, shown through `FoundationProgressProviding` in an extension.
final class VendorTransfer: AsyncOperation, @unchecked Sendable {
    let task = Progress(totalUnitCount: -1)
    override func execute() {}
}

extension VendorTransfer: FoundationProgressProviding {
    var foundationProgress: Progress? { task }
}

@Suite(.ownThread) struct FoundationProgressTests {
    func lines(_ events: [MonitorEvent]) -> [String] {
        var encoder = JSONLinesEncoder()
        var output = ""
        for event in events { encoder.encode(event, into: &output) }
        return output.split(separator: "\n").map(String.init)
    }

    @Test func aDownloadsProgressIsReadAsBytesWhileItRuns() throws {
        let clock = ManualClock()
        let fetch = ProgressReportingFileOperation(total: 1_000_000, file: .downloading)
        fetch.name = "fetch"
        let (queue, monitor) = try #require(running([fetch], clock: clock))
        var row = try #require(monitor.snapshot().operations.first)
        #expect(row.kind == .download && row.unit == .bytes && row.totalUnits == 1_000_000)

        clock.advance(by: .seconds(1))
        fetch.progress.completedUnitCount = 250_000
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.completedUnits == 250_000 && row.unitsPerSecond == 250_000)
        #expect(monitor.snapshot().bytesPerSecond == 250_000, "counted in the queue's byte rate")

        clock.advance(by: .seconds(1))
        fetch.progress.completedUnitCount = 750_000
        #expect(monitor.snapshot().operations.first?.completedUnits == 750_000)
        #expect(
            lines(monitor.drainEvents()).contains(
                #"{"t":2.000,"event":"progress","id":1,"op":"fetch","bytes":750000,"total":1000000,"rate":500000,"retries":0}"#
            ))

        clock.advance(by: .seconds(1))
        _ = monitor.snapshot()
        #expect(monitor.drainEvents().isEmpty, "an unchanged Progress makes no event")

        fetch.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { monitor.subscribedOperationCount == 0 })
        _ = monitor.drainEvents()
        fetch.progress.completedUnitCount = 10
        clock.advance(by: .seconds(1))
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.completedUnits == 1_000_000 && row.outcome == .succeeded)
        #expect(monitor.drainEvents().isEmpty, "a finished operation is no longer read")
    }

    @Test func anUploadingFileProgressIsAnUploadInBytes() throws {
        let clock = ManualClock()
        let upload = ProgressReportingFileOperation(total: 4_000, file: .uploading)
        let (queue, monitor) = try #require(running([upload], clock: clock))
        clock.advance(by: .seconds(2))
        upload.progress.completedUnitCount = 1_000
        let row = try #require(monitor.snapshot().operations.first)
        #expect(row.kind == .upload && row.unit == .bytes)
        #expect(row.completedUnits == 1_000 && row.totalUnits == 4_000 && row.unitsPerSecond == 500)
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func anotherProgressCountsItems() throws {
        let clock = ManualClock()
        let pages = ProgressReportingFileOperation(total: 40, file: nil)
        let (queue, monitor) = try #require(running([pages], clock: clock))
        clock.advance(by: .seconds(2))
        pages.progress.completedUnitCount = 10
        let snapshot = monitor.snapshot()
        let row = try #require(snapshot.operations.first)
        #expect(row.kind == .process && row.unit == .items)
        #expect(row.completedUnits == 10 && row.totalUnits == 40 && row.unitsPerSecond == 5)
        #expect(snapshot.totalBytes == 0 && snapshot.completedBytes == 0, "items are not bytes")
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func aProgressIsReadAtMostOncePerInterval() throws {
        let clock = ManualClock()
        let pages = ProgressReportingFileOperation(total: 40, file: nil)
        let (queue, monitor) = try #require(running([pages], clock: clock))
        clock.advance(by: .seconds(1))
        pages.progress.completedUnitCount = 10
        #expect(monitor.snapshot().operations.first?.completedUnits == 10)
        clock.advance(by: QueueMonitor.progressSampleInterval / 2)
        pages.progress.completedUnitCount = 20
        #expect(monitor.snapshot().operations.first?.completedUnits == 10, "read again only a tick later")
        clock.advance(by: QueueMonitor.progressSampleInterval / 2)
        #expect(monitor.snapshot().operations.first?.completedUnits == 20)
        queue.cancelAllOperations()
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func aClassTheAppCantChangeShowsItsProgressThroughTheProtocol() throws {
        let clock = ManualClock()
        let vendor = VendorTransfer()
        let (queue, monitor) = try #require(running([vendor], clock: clock))
        clock.advance(by: .seconds(1))
        vendor.task.completedUnitCount = 7
        var row = try #require(monitor.snapshot().operations.first)
        #expect(row.completedUnits == 7 && row.totalUnits == 0, "an indeterminate total is unknown")
        clock.advance(by: .seconds(1))
        vendor.task.totalUnitCount = 14
        row = try #require(monitor.snapshot().operations.first)
        #expect(row.totalUnits == 14 && row.fraction == 0.5)
        vendor.cancel()
        queue.waitUntilAllOperationsAreFinished()
    }
}
