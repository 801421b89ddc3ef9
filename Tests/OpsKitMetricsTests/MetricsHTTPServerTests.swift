import Foundation
import OpsMetricsServer
import Testing

/// The `/metrics` server's connection handling on real loopback sockets: what closes a
/// connection, the headers a reply must carry, the timeouts and the connection limit.
@Suite struct MetricsHTTPServerTests {
    static let exposition = "opsdash_operations_added_total{queue=\"q\"} 1\n"

    /// Short timeouts, so a test waits for the close instead of for the defaults.
    static func server(
        requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30), maxConnections: Int = 256
    ) throws -> MetricsHTTPServer {
        let limits = MetricsHTTPServer.Limits(
            requestTimeout: requestTimeout, idleTimeout: idleTimeout, maxConnections: maxConnections)
        return try MetricsHTTPServer(port: 0, limits: limits) { exposition }
    }

    static let unparsable: [(String, [UInt8])] = [
        ("binary bytes", Array("\u{0}\u{1}\u{2}hello\r\n\r\n".utf8)),
        ("a 100 kB URL", Array("GET /\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
        ("an HTTP/2 preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)),
    ]

    @Test(arguments: 0..<unparsable.count)
    func anUnparsableRequestGets400AndTheConnectionCloses(_ index: Int) throws {
        let (name, request) = Self.unparsable[index]
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        client.send(request)
        let (reply, closed) = client.readUntilClosed()
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(reply.prefix(200))")
        #expect(reply.lowercased().contains("\r\nconnection: close\r\n"), "\(name): \(reply.prefix(200))")
        #expect(closed, "\(name): the connection stayed open after Connection: close")
    }

    @Test func aRequestWithConnectionCloseIsAnsweredThenClosed() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (reply, closed) = client.readUntilClosed()
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix(Self.exposition))
        #expect(closed)
    }

    @Test func methodNotAllowedSaysWhatIsAllowed() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        client.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        let reply = try #require(client.readResponse())
        #expect(reply.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"), "\(reply)")
        #expect(reply.lowercased().contains("\r\nallow: get, head\r\n"), "\(reply)")
    }

    @Test func anHTTP10KeepAliveRequestIsToldTheConnectionStaysOpen() throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        for _ in 0..<2 {  // the second request on the same connection shows it did stay open
            client.send("GET /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let reply = try #require(client.readResponse())
            #expect(reply.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(reply)")
            #expect(reply.lowercased().contains("\r\nconnection: keep-alive\r\n"), "\(reply)")
        }
        client.send("GET /metrics HTTP/1.0\r\n\r\n")
        let (last, closed) = client.readUntilClosed()
        #expect(last.lowercased().contains("\r\nconnection: close\r\n"), "\(last)")
        #expect(closed)
    }

    @Test func aConnectionThatSendsNothingIsClosedAfterTheRequestTimeout() throws {
        let server = try Self.server(requestTimeout: .milliseconds(300))
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        let started = ContinuousClock.now
        let (reply, closed) = client.readUntilClosed()
        #expect(closed && reply.isEmpty, "\(reply)")
        #expect(ContinuousClock.now - started >= .milliseconds(250))
    }

    @Test func aRequestCutOffByTheTimeoutIsAnswered408ThenClosed() throws {
        let server = try Self.server(requestTimeout: .milliseconds(300))
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n")  // the blank line never comes
        let (reply, closed) = client.readUntilClosed()
        #expect(closed, "\(reply)")
        #expect(reply.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(reply)")
        #expect(reply.lowercased().contains("\r\nconnection: close\r\n"), "\(reply)")
        #expect(reply.hasSuffix("\r\n\r\nrequest timeout\n"), "\(reply)")
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() throws {
        let server = try Self.server(requestTimeout: .seconds(30), idleTimeout: .milliseconds(300))
        defer { server.shutdown() }
        let client = try LoopbackClient(port: server.port)
        client.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try #require(client.readResponse())
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let (rest, closed) = client.readUntilClosed()
        #expect(closed && rest.isEmpty, "\(rest)")
    }

    @Test func aClientSendingAByteAtATimeIsCutOffWithoutBlockingOthers() throws {
        let server = try Self.server(requestTimeout: .milliseconds(500))
        defer { server.shutdown() }
        let slow = try LoopbackClient(port: server.port)
        let request = Array("GET /metrics HTTP/1.1\r\nHost: a-rather-long-host-name.example\r\n\r\n".utf8)
        var sent = 0
        // One byte every 100 ms (the whole request would take 6 s), until the server hangs up.
        while sent < request.count, slow.send([request[sent]]) {
            sent += 1
            if slow.readable(within: .milliseconds(100)) { break }
            if sent == 2 {  // meanwhile, a scrape on another connection is answered
                let other = try LoopbackClient(port: server.port)
                other.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(other.readResponse()?.hasSuffix(Self.exposition) == true)
            }
        }
        let (reply, closed) = slow.readUntilClosed()
        #expect(closed && reply.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(reply)")
        #expect(sent < request.count, "the whole request went through")
    }

    @Test func oneConnectionOverTheLimitClosesTheOldestIdleOne() throws {
        let server = try Self.server(maxConnections: 2)
        defer { server.shutdown() }
        let oldest = try LoopbackClient(port: server.port)  // sends nothing: idle
        let busy = try LoopbackClient(port: server.port)
        busy.send("GET /metrics HTTP/1.1\r\n")  // in the middle of a request
        #expect(!oldest.readable(within: .milliseconds(200)), "closed before the limit was reached")
        let newest = try LoopbackClient(port: server.port)
        let (reply, closed) = oldest.readUntilClosed()
        #expect(closed && reply.isEmpty, "\(reply)")
        for client in [busy, newest] {  // both still served
            client.send(client === busy ? "Host: x\r\n\r\n" : "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponse()?.hasSuffix(Self.exposition) == true)
        }
    }

    @Test func aFloodOfIdleConnectionsDoesNotKeepAScrapeOut() throws {
        let server = try Self.server(maxConnections: 8)
        defer { server.shutdown() }
        let flood = try (0..<40).map { _ in try LoopbackClient(port: server.port) }
        let scrape = try LoopbackClient(port: server.port)
        scrape.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(scrape.readResponse()?.hasSuffix(Self.exposition) == true)
        // The oldest made room, each for a newer one: the first 33 (32 for the flood, 1 for the scrape).
        let displaced = flood.prefix(33).filter { $0.readUntilClosed().closed }
        #expect(displaced.count == 33)
    }

    @Test(arguments: [70000, 65536, -1, Int.max, Int.min])
    func anOutOfRangePortIsAnError(_ port: Int) {
        #expect {
            _ = try MetricsHTTPServer(port: port) { "" }
        } throws: { error in
            "\(error)" == "port \(port) is out of range (0...65535; 0 picks a free port)"
        }
    }

    @Test func limitsMustBePositive() {
        let limits = MetricsHTTPServer.Limits(requestTimeout: .zero)
        #expect(throws: MetricsServerError.self) { _ = try MetricsHTTPServer(port: 0, limits: limits) { "" } }
        let none = MetricsHTTPServer.Limits(maxConnections: 0)
        #expect(throws: MetricsServerError.self) { _ = try MetricsHTTPServer(port: 0, limits: none) { "" } }
    }
}
