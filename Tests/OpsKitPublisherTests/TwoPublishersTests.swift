import Foundation
import OpsKit
import OpsKitTesting
import OpsMonitor
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// Two publishers of one monitor (say, a Unix socket for local operators and one for a
/// sidecar): each has its own copy of the monitor's events, so a viewer of one keeps the whole
/// picture whatever the viewers of the other do.
@Suite(.ownThread) struct TwoPublishersTests {
    @Test func aViewerOfOnePublisherKeepsEverythingWhenTheOtherPublishersLastViewerLeaves() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-two-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let monitor = QueueMonitor(queue: queue, clock: ManualClock())
        func publisher(_ name: String) throws -> QueuePublisher {
            var options = QueuePublisher.Options()
            options.app = "tests"
            options.directory = root + "/opsdash"
            options.pumpInterval = .milliseconds(5)
            let made = QueuePublisher(monitor: monitor, name: name, options: options)
            try made.start()
            return made
        }
        let first = try publisher("first")
        let second = try publisher("second")
        defer {
            first.stop()
            second.stop()
        }
        let kept = RemoteViewer(target: .unix(first.socketPath), reconnect: false)
        let leaving = RemoteViewer(target: .unix(second.socketPath), reconnect: false)
        #expect(kept.start() == nil)
        #expect(leaving.start() == nil)
        queue.addOperations((0..<5).map { ClosureOperation(name: "c\($0)") {} }, waitUntilFinished: false)
        try #require(eventually(timeout: .seconds(20)) { kept.snapshot.counts.ready == 5 })
        try #require(eventually(timeout: .seconds(20)) { leaving.snapshot.counts.ready == 5 })
        leaving.stop()
        try #require(eventually(timeout: .seconds(20)) { second.statistics()?.viewers == 0 })
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(
            eventually(timeout: .seconds(20)) { kept.snapshot.counts.succeeded == 5 },
            "the first publisher's viewer sees every finish: \(kept.snapshot.counts)")
        kept.stop()
    }
}
