import Foundation
import Logging
import OpsMetricsServer
import ServiceLifecycle
import Testing

/// `MetricsHTTPServer` as a swift-service-lifecycle `Service`: it serves while its group runs,
/// and graceful shutdown or cancellation ends `run()` with the server shut down.
@Suite(.timeLimit(.minutes(1))) struct MetricsServerServiceTests {
    static func server() throws -> MetricsHTTPServer {
        try MetricsHTTPServer(port: 0) { MetricsHTTPServerTests.exposition }
    }

    /// Whether a scrape of `port` is answered.
    static func answers(_ port: Int) -> Bool {
        guard let client = try? LoopbackClient(port: port) else { return false }
        guard client.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") else { return false }
        return client.readUntilClosed().text.hasPrefix("HTTP/1.1 200 OK\r\n")
    }

    @Test func gracefulShutdownOfTheGroupEndsRunAndTheServer() async throws {
        let server = try Self.server()
        let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        #expect(Self.answers(server.port), "serving while the group runs")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(!Self.answers(server.port), "shut down")
    }

    @Test func cancellationEndsRunAndTheServer() async throws {
        let server = try Self.server()
        let running = Task { await server.run() }
        #expect(Self.answers(server.port))
        running.cancel()
        await running.value
        #expect(!Self.answers(server.port), "shut down")
    }
}
