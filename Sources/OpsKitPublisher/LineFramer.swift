import NIOCore

/// Splits inbound bytes into lines (without "\n" or "\r\n"); a line longer than the bound, or
/// that many bytes without a newline, is an error (`LineTooLong`) and the connection closes.
struct LineFramer: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// Thrown for a line over the bound.
    struct LineTooLong: Error {}

    let maximumLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maximumLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - view.startIndex
        if length > maximumLength + 1 { throw LineTooLong() }
        guard var line = buffer.readSlice(length: length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        if line.readableBytes > maximumLength { throw LineTooLong() }
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
