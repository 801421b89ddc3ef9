import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// A tiny HTTP/1.1 server answering `GET /metrics` with a Prometheus exposition (anything else:
/// 404, or 405 for another method). Bound to 127.0.0.1 unless told otherwise.
///
/// Every connection is bounded by `Limits`: a request must arrive complete (and its answer be
/// written) within `requestTimeout` of its first byte (of the connection's opening, for the first
/// one), a kept-alive connection is closed after `idleTimeout` without a new request, and one
/// more than `maxConnections` closes the oldest connection that is not in the middle of a request
/// (the oldest of all if every one is). A request the server cannot parse gets `400 Bad Request`
/// with `Connection: close`, and the connection is closed.
///
/// A `Service`: it listens from `init` (so a port that cannot be bound is an error at once), and
/// run in a `ServiceGroup` it serves until graceful shutdown or cancellation, then shuts down.
/// Without a group, call `shutdown()` when done.
public final class MetricsHTTPServer: Service, Sendable {
    /// What one client may hold of the server, and for how long.
    public struct Limits: Sendable, Equatable {
        /// From a request's first byte until its answer is written (for the first request: from
        /// the connection's opening). A client slower than that is disconnected without an answer.
        public var requestTimeout: Duration
        /// How long a kept-alive connection may wait for its next request.
        public var idleTimeout: Duration
        /// Open connections at most; one more closes the oldest that is not in the middle of a
        /// request (the oldest of all if every one is) to make room.
        public var maxConnections: Int

        /// 10 s per request, 30 s idle, 256 connections (what Prometheus needs is one).
        public init(
            requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(30), maxConnections: Int = 256
        ) {
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
        }
    }

    /// The ports a server can be asked for (0 picks a free one).
    public static let validPorts = 0...65535

    /// The port actually bound (the one asked for, or a free one for 0).
    public let port: Int
    /// The limits every connection is held to.
    public let limits: Limits
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Binds `host:port` (0 picks a free port) and serves `body()` at `/metrics`. Throws a
    /// `MetricsServerError` for a port outside `validPorts`, limits that are not positive, or a
    /// port that cannot be bound.
    public init(
        host: String = "127.0.0.1", port: Int, limits: Limits = Limits(),
        body: @escaping @Sendable () -> String
    ) throws(MetricsServerError) {
        guard Self.validPorts.contains(port) else {
            throw MetricsServerError(reason: "port \(port) is out of range (0...65535; 0 picks a free port)")
        }
        guard limits.requestTimeout > .zero, limits.idleTimeout > .zero, limits.maxConnections > 0 else {
            throw MetricsServerError(reason: "timeouts and the connection limit must be positive")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let open = ConnectionRegistry(limit: limits.maxConnections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)  // a flood waits in the kernel, not in SYN retries
            .serverChannelOption(.maxMessagesPerRead, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let id = open.admit(channel)
                channel.closeFuture.whenComplete { _ in open.remove(id) }
                return channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.configureHTTPServerPipeline(withErrorHandling: false)
                    try sync.addHandler(MetricsRequestHandler(body: body))
                    let deadline = ConnectionDeadlineHandler(limits: limits, registry: open, id: id)
                    try sync.addHandler(deadline, position: .first)
                }
            }
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch let error as IOError {
            try? group.syncShutdownGracefully()
            throw MetricsServerError(reason: String(cString: strerror(error.errnoCode)))
        } catch {
            try? group.syncShutdownGracefully()
            throw MetricsServerError(reason: "\(error)")
        }
        self.group = group
        self.limits = limits
        self.port = channel.localAddress?.port ?? port
    }

    /// Stops listening and closes open connections. Blocks until done; idempotent.
    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// The `Service` entry point: serves until graceful shutdown or the task's cancellation,
    /// then `shutdown()` (on a thread of its own: it blocks).
    public func run() async {
        try? await gracefulShutdown()  // throws CancellationError when cancelled: stop as well
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                self.shutdown()
                done.resume()
            }
        }
    }
}

/// Why the metrics server could not start, in words (the system's, for a socket error).
public struct MetricsServerError: Error, CustomStringConvertible {
    /// What went wrong, e.g. "Address already in use".
    public let reason: String
    public var description: String { reason }
}
