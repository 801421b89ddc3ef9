import NIOCore
import OpsKit

/// Sent outbound by `MetricsRequestHandler` once an answer is written: the connection is idle
/// until the next request's first byte.
struct ResponseWritten: Sendable {}

/// Closes a connection whose request takes longer than `requestTimeout` from its first byte
/// until its answer is written (from the connection's opening for the first request), or which
/// stays idle between requests for longer than `idleTimeout`. First in the pipeline, so it sees
/// the raw bytes: a client sending a byte at a time is timed from its first one. A request cut
/// off before any of its answer was written is told so first: `408 Request Timeout`.
final class ConnectionDeadlineHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let requestTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    private let registry: ConnectionRegistry
    private let id: Int
    /// Between requests (or before the first): the next byte starts one.
    private var waiting = true
    /// Whether a request was answered: a later request's time runs from its own first byte.
    private var answeredOne = false
    /// Whether bytes of the current request's answer were written (no 408 can follow them).
    private var answering = false
    private var deadline: Scheduled<Void>?

    /// Times connection `id`, telling `registry` while it is in the middle of a request.
    init(limits: MetricsHTTPServer.Limits, registry: ConnectionRegistry, id: Int) {
        requestTimeout = Self.timeAmount(limits.requestTimeout)
        idleTimeout = Self.timeAmount(limits.idleTimeout)
        self.registry = registry
        self.id = id
    }

    /// `duration` in NIO's terms (a century at most).
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(min(duration, .seconds(100 * 365 * 86_400)).nanoseconds)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(requestTimeout, context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { arm(requestTimeout, context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if waiting {
            waiting = false
            registry.setBusy(id, true)
            // The first request's time runs from the connection's opening; a later one's from now.
            if answeredOne { arm(requestTimeout, context: context) }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !waiting { answering = true }
        context.write(data, promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ResponseWritten else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        waiting = true
        answering = false
        answeredOne = true
        registry.setBusy(id, false)
        if context.channel.isActive { arm(idleTimeout, context: context) }
        promise?.succeed(())
    }

    /// Replaces the pending deadline with one `timeout` from now that closes the connection,
    /// after a 408 when part of a request came and none of its answer went.
    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            guard !waiting, !answering else {
                context.close(promise: nil)
                return
            }
            answering = true
            let reply = context.channel.allocator.buffer(string: Self.requestTimeoutReply)
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(reply))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// What a client cut off in the middle of its request reads before the connection closes.
    static let requestTimeoutReply =
        "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: 16\r\n\r\nrequest timeout\n"
}
