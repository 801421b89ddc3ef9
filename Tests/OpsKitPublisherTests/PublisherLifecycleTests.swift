import Foundation
import Logging
import OpsKit
import OpsKitTesting
import OpsMonitor
import ServiceLifecycle
import Testing

@_spi(OpsDashInternals) @testable import OpsKitPublisher
import RemoteTestSupport

/// `QueuePublisher` as a swift-service-lifecycle `Service`: `run()` starts it, and graceful
/// shutdown or cancellation (in a `ServiceGroup` or not) stops it, viewers told with a `bye`.
@Suite(.ownThread, .timeLimit(.minutes(1))) struct PublisherLifecycleTests {
    /// Holds a publisher so that the event loop can drop the last reference.
    private final class Holder: @unchecked Sendable {
        // Locking: set on the test's thread, then cleared on the event loop only.
        var publisher: QueuePublisher?
    }

    @Test func droppingTheLastReferenceOnItsEventLoopSaysByeWithoutWaiting() throws {
        let published = try Published()
        let holder = Holder()
        holder.publisher = QueuePublisher(
            monitor: published.monitor, name: "dropped", options: published.publisher.options)
        try holder.publisher?.start()
        let socketPath = try #require(holder.publisher?.socketPath)
        let loop = try #require(holder.publisher?.eventLoop)
        let client = try LineClient(.unix(socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(containing: #""event":"welcome""#) != nil)
        // deinit runs here, on the loop: a blocking stop() would trap in NIO's wait().
        try loop.submit { holder.publisher = nil }.wait()
        #expect(client.line(containing: #""event":"bye""#) != nil, "viewers are told")
        #expect(client.closed())
        #expect(!FileManager.default.fileExists(atPath: socketPath))
    }

    @Test func cancellingTheServiceGroupEndsRunAndSaysBye() async throws {
        let published = try Published()
        let (_, running, client) = try await Self.runInGroupWithAViewer(published)
        running.cancel()
        _ = try? await running.value
        #expect(client.line(containing: #""event":"bye""#) != nil, "viewers are told")
        #expect(!FileManager.default.fileExists(atPath: published.publisher.socketPath))
    }

    /// Waits (bounded) for the publisher to listen: `run()` starts it on a thread of its own. The
    /// socket file appears at `bind`, before `listen`: a connect in between is refused, so the
    /// wait is for the started publisher (its statistics), not for the file.
    private static func socketAppears(_ publisher: QueuePublisher) async -> Bool {
        await eventually(timeout: .seconds(20)) {
            publisher.statistics() != nil && FileManager.default.fileExists(atPath: publisher.socketPath)
        }
    }

    /// Runs `published`'s publisher in a `ServiceGroup` and connects a viewer it welcomed.
    private static func runInGroupWithAViewer(_ published: Published) async throws
        -> (ServiceGroup, Task<Void, any Error>, LineClient)
    {
        let group = ServiceGroup(services: [published.publisher], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        #expect(await socketAppears(published.publisher))
        let client = try LineClient(.unix(published.publisher.socketPath))
        client.send(#"{"cmd":"hello","min":1,"max":1}"# + "\n")
        #expect(client.line(containing: #""event":"welcome""#) != nil)
        return (group, running, client)
    }

    @Test func gracefulShutdownOfTheGroupEndsRunAndSaysBye() async throws {
        let published = try Published()
        let (group, running, client) = try await Self.runInGroupWithAViewer(published)
        await group.triggerGracefulShutdown()
        try await running.value  // returns, without an error
        #expect(client.line(containing: #""event":"bye""#) != nil, "viewers are told")
        #expect(client.closed())
        #expect(!FileManager.default.fileExists(atPath: published.publisher.socketPath))
        #expect(published.publisher.statistics() == nil, "stopped")
    }

    @Test func runInATaskCancelledAlreadyStartsThenStopsAndLeavesNothing() async throws {
        let published = try Published()
        let publisher = published.publisher
        let running = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await publisher.run()
        }
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: publisher.socketPath))
        #expect(publisher.statistics() == nil, "stopped")
    }

    @Test func cancellationEndsRunWithoutAGroup() async throws {
        let published = try Published()
        let publisher = published.publisher
        let running = Task { try await publisher.run() }
        #expect(await Self.socketAppears(publisher))
        running.cancel()
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: publisher.socketPath))
    }

    @Test func aPublisherThatCannotStartFailsRunAndTheGroup() async throws {
        let published = try Published()
        published.monitor.stop()
        let group = ServiceGroup(services: [published.publisher], logger: Logger(label: "test"))
        await #expect(throws: RemoteError.self) { try await group.run() }
        #expect(!FileManager.default.fileExists(atPath: published.publisher.socketPath))
    }
}
