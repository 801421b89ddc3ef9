import Dispatch
import Foundation
import OpsKit
import OpsKitTesting
import Synchronization
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

/// A real publisher whose queue drains faster than its burst rate: viewers (of the shared
/// stream and of the socket) are told `resync` (burst), end with the right picture, and
/// follow the changes after the burst one by one again.
@Suite(.ownThread, .serialized) struct PublisherBurstSocketTests {
    @Test func viewersOfABurstGetTheFinalPictureThenDeltasAgain() throws {
        let published = try Published { options in
            // A burst is 512 changes at 5,000/s or faster: 5,000 operations (15,000 changes)
            // drain far faster than that on any machine the tests run on.
            options.configuration.ringCapacity = 1_024
            options.configuration.burstRate = 5_000
            options.stopTimeout = .seconds(60)
        }
        try published.publisher.start()
        let shared = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        let socketOnly = RemoteViewer(
            target: .unix(published.publisher.socketPath), reconnect: false, sharedMemory: false)
        #expect(shared.start() == nil)
        #expect(socketOnly.start() == nil)
        try #require(
            eventually(timeout: .seconds(60)) { shared.readsSharedStream && socketOnly.status.link == .connected })
        published.add(5_000)
        published.queue.isSuspended = false
        published.queue.waitUntilAllOperationsAreFinished()
        for (name, viewer) in [("shared-memory", shared), ("socket-only", socketOnly)] {
            try #require(
                eventually(timeout: .seconds(60)) { viewer.snapshot.counts.succeeded == 5_000 },
                Comment(
                    rawValue:
                        "the \(name) viewer: \(viewer.snapshot.counts.succeeded) succeeded, \(viewer.status.link), "
                        + "\(viewer.status.detail), resync \(viewer.status.resyncReason ?? "none"), "
                        + "publisher \(String(describing: published.publisher.tally()))"))
        }
        let resyncs = try #require(published.publisher.tally()).resyncs
        #expect(resyncs["burst", default: 0] >= 2, "both viewers were told: \(resyncs)")
        // After the burst, changes come one by one again: the added operation is an event.
        published.queue.addOperation(ClosureOperation(name: "after the burst") {})
        published.queue.waitUntilAllOperationsAreFinished()
        for viewer in [shared, socketOnly] {
            try #require(eventually(timeout: .seconds(60)) { viewer.snapshot.counts.succeeded == 5_001 })
            try #require(eventually(timeout: .seconds(60)) { viewer.status.resyncReason == nil })
            #expect(viewer.snapshot.operations.contains { $0.name == "after the burst" })
        }
        try #require(eventually(timeout: .seconds(60)) { shared.readsSharedStream })
        shared.stop()
        socketOnly.stop()
    }

    @Test func anAppThatStopsDuringABurstLeavesViewersTheFinalPicture() throws {
        let published = try Published { options in
            options.configuration.ringCapacity = 1_024
            options.configuration.burstRate = 5_000
            options.configuration.burstKeyframeInterval = .seconds(3_600)
            // The last picture and the bye wait for a thread at the lowest priority.
            options.stopTimeout = .seconds(60)
        }
        try published.publisher.start()
        let viewer = RemoteViewer(target: .unix(published.publisher.socketPath), reconnect: false)
        #expect(viewer.start() == nil)
        try #require(eventually(timeout: .seconds(60)) { viewer.readsSharedStream })
        // Operations keep coming, far faster than the rate (up to ~100,000 changes/s), but
        // leaving the publisher's low-priority thread (and other tests) some CPU: the burst goes
        // on until the stop.
        let adding = Atomic<Bool>(true)
        let added = DispatchSemaphore(value: 0)
        let queue = published.queue
        Thread {
            while adding.load(ordering: .relaxed) {
                queue.addOperations((0..<200).map { _ in ClosureOperation {} }, waitUntilFinished: false)
                usleep(5_000)
            }
            added.signal()
        }.start()
        published.queue.isSuspended = false
        let burst = eventually(timeout: .seconds(60)) { published.publisher.tally()?.resyncs["burst"] != nil }
        let enough = eventually(timeout: .seconds(60)) { published.monitor.changeCount >= 10_000 }
        // The app stops adding and shuts down at once: the burst (which ends only after 100 ms
        // of calm) is still on, and the app's threads leave the publisher time to say bye.
        adding.store(false, ordering: .relaxed)
        added.wait()
        try #require(burst && enough)
        let before = published.monitor.snapshot().counts.succeeded
        published.publisher.stop()
        viewer.waitUntilFinished()
        #expect(viewer.endReason.bye)
        #expect(
            viewer.snapshot.counts.succeeded >= before,
            "the picture at the bye is the last one, not the burst's first: \(viewer.snapshot.counts)")
    }
}
