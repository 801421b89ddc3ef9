import NIOCore

/// Reads a connection's bytes no faster than `bytesPerSecond`, so an upload to the demo server
/// takes visible time: the channel reads only when this handler asks (`autoRead` off), and after
/// each read it waits as long as those bytes take at that rate before asking again. The client's
/// writes wait meanwhile (TCP's window), so its upload progress follows the server's pace.
final class ReadPacer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let bytesPerSecond: Int
    private var bytesThisRead = 0

    init(bytesPerSecond: Int) {
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        bytesThisRead += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        let wait = TimeAmount.nanoseconds(Int64(bytesThisRead) * 1_000_000_000 / Int64(bytesPerSecond))
        bytesThisRead = 0
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: wait) {
            let context = loopBound.value
            if context.channel.isActive { context.read() }
        }
        context.fireChannelReadComplete()
    }
}
