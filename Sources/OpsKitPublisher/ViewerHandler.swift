import NIOCore

/// One viewer's connection in the publisher's pipeline, after `LineFramer`: hands lines,
/// writability and closing to the engine.
final class ViewerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let engine: NIOLoopBoundBox<PublisherEngine>
    private let peer: PublisherCore.Peer
    private var id: Int?

    init(engine: NIOLoopBoundBox<PublisherEngine>, peer: PublisherCore.Peer) {
        self.engine = engine
        self.peer = peer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    private func register(_ context: ChannelHandlerContext) {
        guard id == nil else { return }
        id = engine.value.connect(context.channel, peer: peer)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let id else { return }
        engine.value.receive(id, unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is LineFramer.LineTooLong, let id {
            engine.value.lineTooLong(id)
        } else {
            context.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let id { engine.value.setWritable(id, context.channel.isWritable) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id { engine.value.disconnect(id) }
        id = nil
        context.fireChannelInactive()
    }
}
