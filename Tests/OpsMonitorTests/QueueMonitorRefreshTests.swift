import Foundation
import OpsKit
import OpsKitTesting
import Testing
@testable import OpsMonitor

/// `QueueMonitor.refresh`: the dashboard hands back the picture it showed, and the monitor lets
/// go of it before applying, so the store changes its rows in place.
@Suite(.ownThread) struct QueueMonitorRefreshTests {
    @Test func theOnlyPictureHandedBackLetsTheStoreChangeItsRowsInPlace() throws {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        // Waiting for a gate that is never added: a cancelled one finishes (cancelled) at once.
        let gate = ClosureOperation {}
        let waiting = (0..<3).map { _ in
            let op = ClosureOperation {}
            op.addDependency(gate)
            return op
        }
        queue.addOperations(waiting, waitUntilFinished: false)

        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        try #require(picture.operations.count == 3)
        let address = try #require(picture.operations.chunkAddress(0))

        waiting[0].cancel()
        #expect(monitor.refresh(&picture, ifChangedSince: picture.version))
        #expect(picture.operations[0].lifecycle != .waiting)
        #expect(picture.operations.chunkAddress(0) == address, "the store copied the chunk the picture held")

        // The same change with the picture also held elsewhere copies the chunk (what the
        // dashboard's every frame did when it kept its picture while the store changed).
        let kept = picture
        waiting[1].cancel()
        #expect(monitor.refresh(&picture, ifChangedSince: picture.version))
        #expect(picture.operations[1].lifecycle != .waiting)
        #expect(picture.operations.chunkAddress(0) != address)
        #expect(kept.operations[1].lifecycle == .waiting)

        for op in waiting { op.cancel() }
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func nothingChangedLeavesThePictureAndSaysSo() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        queue.addOperation(ClosureOperation {})
        var picture = QueueSnapshot()
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        let shown = picture
        #expect(!monitor.refresh(&picture, ifChangedSince: picture.version))
        #expect(picture.version == shown.version)
        #expect(picture.time == shown.time)
        #expect(picture.operations.chunkStamps == shown.operations.chunkStamps)
        // No version: a new picture whatever changed (the dashboard's once-a-second clock).
        #expect(monitor.refresh(&picture, ifChangedSince: nil))
        queue.maxConcurrentOperationCount = 3
        #expect(monitor.refresh(&picture, ifChangedSince: shown.version))
        #expect(picture.maxConcurrentOperationCount == 3)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }
}
