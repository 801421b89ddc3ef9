import NIOCore
import NIOHTTP1

/// Answers one connection's requests: `GET /files/NAME` sends the generated file NAME (paced to
/// `bytesPerSecond`, 0 for as fast as the socket takes it), `PUT` or `POST /uploads/NAME`
/// receives an upload of at most `maxUpload` bytes (its `Content-Length` must say how many) and
/// answers `201`. Anything else gets `404`, `405`, `411` or `413` and the connection is closed,
/// without reading a body the server did not ask for.
final class FileRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let files: [String: Int64]
    private let bytesPerSecond: Int
    private let maxUpload: Int64
    private let tally: ServerTally
    /// The upload being received: its name and bytes so far.
    private var upload: (name: String, bytes: Int64)?
    private var keepAlive = true

    /// One 64 KiB chunk of the generated content, written as many times as a file needs.
    private static let pattern: ByteBuffer = {
        var buffer = ByteBufferAllocator().buffer(capacity: 65_536)
        for index in 0..<65_536 { buffer.writeInteger(UInt8(truncatingIfNeeded: index &* 31 &+ 7)) }
        return buffer
    }()

    init(files: [String: Int64], bytesPerSecond: Int, maxUpload: Int64, tally: ServerTally) {
        self.files = files
        self.bytesPerSecond = bytesPerSecond
        self.maxUpload = maxUpload
        self.tally = tally
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            route(head, context: context)
        case .body(let buffer):
            guard let current = upload else { return }
            tally.received(buffer.readableBytes, of: current.name)
            upload = (current.name, current.bytes + Int64(buffer.readableBytes))
        case .end:
            guard let current = upload else { return }
            upload = nil
            respond(.created, text: "received \(current.bytes) bytes\n", context: context)
        }
    }

    private func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        if let name = path.dropPrefix("/files/") {
            guard head.method == .GET else { return refuse(.methodNotAllowed, context: context) }
            guard let size = files[name] else { return refuse(.notFound, context: context) }
            send(name: name, size: size, context: context)
        } else if let name = path.dropPrefix("/uploads/"), !name.isEmpty, !name.contains("/") {
            guard head.method == .PUT || head.method == .POST else {
                return refuse(.methodNotAllowed, context: context)
            }
            guard let length = head.headers.first(name: "content-length").flatMap({ Int64($0) }), length >= 0
            else { return refuse(.lengthRequired, context: context) }
            guard length <= maxUpload else { return refuse(.payloadTooLarge, context: context) }
            upload = (name, 0)
        } else {
            refuse(.notFound, context: context)
        }
    }

    /// Sends file `name` of `size` bytes: the head, then chunks (at `bytesPerSecond`, a
    /// twentieth of a second's worth each), then the end.
    private func send(name: String, size: Int64, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: "\(size)")
        headers.add(name: "content-type", value: "application/octet-stream")
        context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        let chunk = bytesPerSecond > 0 ? min(Self.pattern.readableBytes, max(1_024, bytesPerSecond / 20)) : 65_536
        let interval = TimeAmount.nanoseconds(
            bytesPerSecond > 0 ? Int64(chunk) * 1_000_000_000 / Int64(bytesPerSecond) : 0)
        writeChunks(name: name, left: size, chunk: chunk, interval: interval, context: context)
    }

    private func writeChunks(
        name: String, left: Int64, chunk: Int, interval: TimeAmount, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        guard left > 0 else {
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
            return
        }
        let length = Int(min(Int64(chunk), left))
        let slice = Self.pattern.getSlice(at: 0, length: length) ?? Self.pattern
        tally.sent(length, of: name)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        // The next chunk once this one is written and its share of a second has passed.
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(slice)))).whenSuccess {
            eventLoop.scheduleTask(in: interval) {
                let (handler, context) = loopBound.value
                handler.writeChunks(
                    name: name, left: left - Int64(length), chunk: chunk, interval: interval, context: context)
            }
        }
    }

    private func respond(_ status: HTTPResponseStatus, text: String, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: "\(text.utf8.count)")
        headers.add(name: "content-type", value: "text/plain; charset=utf-8")
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(.init(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text)))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive { done.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) } }
    }

    /// Answers `status` and closes the connection (its request body, if any, is never read).
    private func refuse(_ status: HTTPResponseStatus, context: ChannelHandlerContext) {
        keepAlive = false
        respond(status, text: "\(status.code) \(status.reasonPhrase)\n", context: context)
    }
}

extension String {
    /// The rest of the string after `prefix`, or nil when it does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
