import NIOCore
import NIOHTTP1

/// Answers one request at a time on a connection: `/metrics` for GET and HEAD, 404 for another
/// path, 405 (with `Allow`) for another method, 400 for what cannot be parsed. A reply that says
/// `Connection: close` is followed by closing the connection.
final class MetricsRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let body: @Sendable () -> String
    private var request: HTTPRequestHead?
    private var closing = false

    init(body: @escaping @Sendable () -> String) {
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
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

    /// A request the decoder could not parse (bad bytes, a head over its size limit, an HTTP/2
    /// preface) gets 400 and the connection is closed; any other error closes it at once.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !closing else {
            closing = true
            context.close(promise: nil)
            return
        }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "", headers: ["Connection": "close"])
        send(.badRequest, "bad request\n", to: head, context: context)
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        if path != "/metrics" {
            send(.notFound, "not found: try /metrics\n", to: head, context: context)
        } else if head.method != .GET && head.method != .HEAD {
            send(.methodNotAllowed, "method not allowed\n", to: head, context: context, extra: [("Allow", "GET, HEAD")])
        } else {
            send(.ok, body(), to: head, context: context)
        }
    }

    /// Writes the reply; closes the connection after it unless `head` keeps it alive (an HTTP/1.0
    /// request that asks for keep-alive is told so in the reply).
    private func send(
        _ status: HTTPResponseStatus, _ text: String, to head: HTTPRequestHead, context: ChannelHandlerContext,
        extra: [(String, String)] = []
    ) {
        let keepAlive = head.isKeepAlive && !closing
        var headers = HTTPHeaders(extra)
        headers.add(
            name: "Content-Type",
            value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count))
        if !keepAlive {
            headers.add(name: "Connection", value: "close")
            closing = true
        } else if head.version == .http1_0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let version: HTTPVersion = head.version == .http1_0 ? .http1_0 : .http1_1
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if keepAlive {
                channel.triggerUserOutboundEvent(ResponseWritten(), promise: nil)
            } else {
                channel.close(promise: nil)
            }
        }
    }
}
