import Foundation
import OpsKitTesting
import Testing
@_spi(OpsDashInternals) @testable import OpsKitPublisher
@_spi(OpsDashInternals) @testable import OpsKitViewer
import RemoteTestSupport

/// Whether this machine's loopback has an IPv6 address (`::1`).
private let hasIPv6Loopback: Bool = {
    guard let table = try? String(contentsOfFile: "/proc/net/if_inet6", encoding: .utf8) else { return false }
    return table.split(separator: "\n").contains { $0.hasPrefix("00000000000000000000000000000001") }
}()

@Suite(.ownThread, .serialized) struct TCPTargetTests {
    @Test func targetsParseIPv4IPv6AndNames() {
        #expect(RemoteTarget(parsing: "tcp://127.0.0.1:7391") == .tcp(host: "127.0.0.1", port: 7391))
        #expect(RemoteTarget(parsing: "tcp://[::1]:7391") == .tcp(host: "::1", port: 7391))
        #expect(RemoteTarget(parsing: "tcp://localhost:9") == .tcp(host: "localhost", port: 9))
        #expect(RemoteTarget(parsing: "tcp://::1:7391") == nil, "an IPv6 literal needs brackets")
        #expect(RemoteTarget(parsing: "tcp://[]:7391") == nil)
        #expect(RemoteTarget(parsing: "tcp://[::1:7391") == nil)
        #expect(RemoteTarget(parsing: "tcp://host:0") == nil)
        #expect(RemoteTarget(parsing: "tcp://host:+7391") == nil, "a port is digits only")
        #expect(RemoteTarget(parsing: "tcp://host:") == nil)
        #expect(RemoteTarget.tcp(host: "::1", port: 7391).description == "tcp://[::1]:7391")
        #expect(RemoteTarget.tcp(host: "127.0.0.1", port: 7391).description == "tcp://127.0.0.1:7391")
    }

    @Test(arguments: [70000, 65536, -1, Int.max, Int.min])
    func tcpOptionsRefuseAnOutOfRangePort(_ port: Int) {
        #expect(throws: RemoteError("TCP port \(port) is out of range (0...65535; 0 picks a free port)")) {
            _ = try QueuePublisher.TCPOptions(port: port, readTokenFile: "/nonexistent/read.token")
        }
    }

    @Test func tcpOptionsTakeEveryValidPort() throws {
        for port in [0, 1, 7391, 65535] {
            #expect(try QueuePublisher.TCPOptions(port: port, readTokenFile: "/nonexistent/read.token").port == port)
        }
    }

    @Test func anUnknownHostSaysItCannotBeResolved() {
        guard case .failure(let error) = RemoteTarget.tcp(host: "no-such-host.invalid", port: 7391).connect() else {
            Issue.record("connected to a host that does not exist")
            return
        }
        #expect(error.description.hasPrefix("cannot resolve no-such-host.invalid: "))
    }

    @Test func aClosedPortSaysConnectionRefused() throws {
        let published = try Published(tcp: true)
        try published.publisher.start()
        let port = try #require(published.publisher.tcpPort)
        published.publisher.stop()
        guard case .failure(let error) = RemoteTarget.tcp(host: "127.0.0.1", port: port).connect() else {
            Issue.record("connected to a stopped publisher")
            return
        }
        #expect(error.description == "cannot connect to tcp://127.0.0.1:\(port): Connection refused")
    }

    @Test func aViewerAttachesByNameToAPublisherOnLoopback() throws {
        let published = try Published(tcp: true)
        try published.publisher.start()
        let port = try #require(published.publisher.tcpPort)
        let token = try TokenFile.load((published.directory as NSString).deletingLastPathComponent + "/read.token")
        let viewer = RemoteViewer(target: .tcp(host: "localhost", port: port), token: token, reconnect: false)
        #expect(viewer.start() == nil)
        #expect(eventually(timeout: .seconds(10)) { viewer.status.welcome != nil })
        viewer.stop()
    }

    @Test(.enabled(if: hasIPv6Loopback, "no IPv6 loopback on this machine"))
    func aPublisherOnIPv6LoopbackServesAViewer() throws {
        let published = try Published(tcp: true) { $0.tcp?.host = "::1" }
        try published.publisher.start()
        let port = try #require(published.publisher.tcpPort)
        let token = try TokenFile.load((published.directory as NSString).deletingLastPathComponent + "/read.token")
        let target = try #require(RemoteTarget(parsing: "tcp://[::1]:\(port)"))
        let viewer = RemoteViewer(target: target, token: token, reconnect: false)
        #expect(viewer.start() == nil)
        published.add(3)
        published.queue.isSuspended = false
        #expect(eventually(timeout: .seconds(10)) { viewer.snapshot.counts.succeeded == 3 })
        viewer.stop()
    }
}
