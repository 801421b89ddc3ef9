import NIOCore

/// Sent outbound by `MetricsRequestHandler` once an answer is written: the connection is idle
/// until the next request's first byte.
struct ResponseWritten: Sendable {}

/// Closes a connection whose request takes longer than `requestTimeout` from its first byte
/// until its answer is written (from the connection's opening for the first request), or which
/// stays idle between requests for longer than `idleTimeout`. First in the pipeline, so it sees
/// the raw bytes: a client sending a byte at a time is timed from its first one.
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
        let (seconds, attoseconds) = duration.components
        let capped = min(seconds, 100 * 365 * 86_400)
        return .nanoseconds(capped * 1_000_000_000 + attoseconds / 1_000_000_000)
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

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ResponseWritten else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        waiting = true
        answeredOne = true
        registry.setBusy(id, false)
        if context.channel.isActive { arm(idleTimeout, context: context) }
        promise?.succeed(())
    }

    /// Replaces the pending deadline with one `timeout` from now that closes the connection.
    private func arm(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
