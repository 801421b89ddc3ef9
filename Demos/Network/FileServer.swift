import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The demo's HTTP/1.1 file server on 127.0.0.1: serves generated files (`GET /files/NAME`) and
/// takes uploads (`PUT`/`POST /uploads/NAME`), each paced to `bytesPerSecond` so the dashboard
/// shows bytes moving (see `FileRequestHandler`). Request heads are bounded by NIO's HTTP
/// parser (80 KiB), a body by `maxUpload`; a request NIO cannot parse gets `400`.
///
/// A `Service`: it listens from `init` (a port that cannot be bound is an error at once) and,
/// in a `ServiceGroup`, serves until graceful shutdown or cancellation.
final class FileServer: Service, Sendable {
    /// The port bound (the one asked for, or a free one for 0).
    let port: Int
    /// What was sent and received, per file.
    let tally = ServerTally()
    private let channel: any Channel
    private let group: MultiThreadedEventLoopGroup

    /// Binds 127.0.0.1:`port` (0: any free port) and serves `files` (name → size in bytes),
    /// moving each transfer at `bytesPerSecond` (0: unpaced). Throws when the port cannot be bound.
    init(port: Int, files: [String: Int64], bytesPerSecond: Int, maxUpload: Int64) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let tally = self.tally
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if bytesPerSecond > 0 { try sync.addHandler(ReadPacer(bytesPerSecond: bytesPerSecond)) }
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(
                        FileRequestHandler(
                            files: files, bytesPerSecond: bytesPerSecond, maxUpload: maxUpload, tally: tally))
                }
            }
        if bytesPerSecond > 0 {
            // The pacer asks for every read. An Ethernet-sized segment (loopback's is 64 KiB) and
            // a small receive buffer keep the client's send buffer, which the kernel sizes from
            // them, small: what the client has written (its upload progress) then stays close to
            // what the server has read, instead of megabytes ahead.
            bootstrap = bootstrap.serverChannelOption(.socketOption(.so_rcvbuf), value: 32 * 1_024)
                .serverChannelOption(.tcpOption(.init(rawValue: CInt(TCP_MAXSEG))), value: 1_460)
                .childChannelOption(.autoRead, value: false)
        }
        do {
            channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.group = group
        self.port = channel.localAddress?.port ?? port
    }

    /// The `Service` entry point: serves until graceful shutdown or cancellation, then closes
    /// the listener and every connection (on a thread of its own: it blocks).
    func run() async {
        try? await gracefulShutdown()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                try? self.channel.close().wait()
                try? self.group.syncShutdownGracefully()
                done.resume()
            }
        }
    }
}
