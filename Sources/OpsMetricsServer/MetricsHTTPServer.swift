import NIOCore
import NIOHTTP1
import NIOPosix

/// A tiny HTTP/1.1 server answering `GET /metrics` with a Prometheus exposition (anything else:
/// 404, or 405 for another method). Bound to 127.0.0.1 unless told otherwise.
public final class MetricsHTTPServer: Sendable {
    /// The port actually bound (the one asked for, or a free one for 0).
    public let port: Int
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Binds `host:port` (0 picks a free port) and serves `body()` at `/metrics`.
    public init(host: String = "127.0.0.1", port: Int, body: @escaping @Sendable () -> String) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(MetricsRequestHandler(body: body))
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
        self.port = channel.localAddress?.port ?? port
    }

    /// Stops listening and closes open connections.
    public func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// Why the metrics server could not start, in words (the system's, for a socket error).
public struct MetricsServerError: Error, CustomStringConvertible {
    /// What went wrong, e.g. "Address already in use".
    public let reason: String
    public var description: String { reason }
}

/// Answers one request at a time on a connection.
private final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let body: @Sendable () -> String
    private var request: HTTPRequestHead?

    init(body: @escaping @Sendable () -> String) {
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            request = head
        case .body:
            break
        case .end:
            guard let head = request else { return }
            request = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let status: HTTPResponseStatus
        let text: String
        if path != "/metrics" {
            (status, text) = (.notFound, "not found: try /metrics\n")
        } else if head.method != .GET && head.method != .HEAD {
            (status, text) = (.methodNotAllowed, "method not allowed\n")
        } else {
            (status, text) = (.ok, body())
        }
        var headers = HTTPHeaders()
        headers.add(
            name: "Content-Type",
            value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        if head.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let keepAlive = head.isKeepAlive
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
