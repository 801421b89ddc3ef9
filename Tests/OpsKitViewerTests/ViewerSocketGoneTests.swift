import Foundation
import OpsKitTesting
import Testing
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

/// A viewer attached by socket path whose socket file is removed says so (instead of retrying
/// in silence), names the same app/queue when it is published again next to it, and follows it.
@Suite(.ownThread) struct ViewerSocketGoneTests {
    @Test func aRemovedSocketIsSaidAndTheRepublishedQueueIsFollowed() throws {
        let first = try Published()
        try first.publisher.start()
        let path = first.publisher.socketPath
        let viewer = RemoteViewer(target: .unix(path), reconnect: true)
        #expect(viewer.start() == nil)
        defer { viewer.stop() }
        try #require(eventually(timeout: .seconds(10)) { viewer.status.link == .connected })
        #expect(viewer.socketGone == nil)
        first.publisher.stop()
        let gone = "socket \(path) gone: the app stopped publishing"
        try #require(eventually(timeout: .seconds(10)) { viewer.status.nextAttempt != nil })
        #expect(viewer.socketGone == gone)
        #expect(viewer.status.detail == "app shutting down", "the header keeps why the connection ended")
        #expect(viewer.status.link == .disconnected, "it keeps retrying, and says why")

        // The same app/queue published again, at another socket, with its sidecar next to the old one.
        let second = try Published()
        try second.publisher.start()
        try PublishedQueue(
            app: "tests", queue: "work", pid: Int(getpid()), started: 2, socket: second.publisher.socketPath,
            viewers: 0
        ).write(to: first.directory + "/tests.work.again.json")
        try #require(eventually(timeout: .seconds(20)) { viewer.status.link == .connected })
        #expect(viewer.socketGone == nil)
        #expect(viewer.status.welcome?.label == "tests/work")
    }

    @Test func theGoneTextNamesTheSameQueuePublishedAgainNextToTheOldSocket() throws {
        let published = try Published()
        try published.publisher.start()
        let old = published.directory + "/tests.work.1.sock"
        #expect(RemoteViewer.SocketGone.check(published.publisher.socketPath, label: "tests/work") == nil)
        let gone = try #require(RemoteViewer.SocketGone.check(old, label: "tests/work"))
        #expect(gone.republished == published.publisher.socketPath)
        #expect(
            gone.text
                == "socket \(old) gone: the app stopped publishing; tests/work is published again at \(published.publisher.socketPath)"
        )
        #expect(
            RemoteViewer.SocketGone.check(old, label: "other/work")?.text
                == "socket \(old) gone: the app stopped publishing")
        #expect(RemoteViewer.SocketGone.check(old, label: nil)?.republished == nil)
    }
}
