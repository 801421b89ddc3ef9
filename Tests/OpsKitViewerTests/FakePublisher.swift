import Foundation
import OpsKitTesting
@_spi(OpsDashInternals) @testable import OpsKitViewer

/// A hostile publisher for one viewer: listens on loopback TCP or on a Unix socket, takes one
/// connection, waits for its hello, then says `lines` and closes (each line with its newline).
final class FakePublisher: @unchecked Sendable {
    /// Where a viewer connects.
    let target: RemoteTarget
    private let listener: Int32
    private let socketPath: String?
    private let finished = DispatchSemaphore(value: 0)

    /// `unixIn`: a Unix socket in that directory; nil: TCP on 127.0.0.1. `after`: the viewer
    /// lines it reads before it answers (a fleet list sends its hello and a `status`).
    init(unixIn directory: String? = nil, lines: [String], after: Int = 1) throws {
        if let directory {
            let path = directory + "/fake.sock"
            listener = try Self.listeningSocket(at: path)
            socketPath = path
            target = .unix(path)
        } else {
            let (descriptor, port) = try ListeningPort.loopbackSocket(listening: true)
            listener = descriptor
            socketPath = nil
            target = .tcp(host: "127.0.0.1", port: port)
        }
        let listener = listener
        let finished = finished
        let text = lines.map { $0 + "\n" }.joined()
        Thread.detachNewThread {
            defer { finished.signal() }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var byte: UInt8 = 0
            for _ in 0..<after {
                while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
            }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, UnixSocket.noSignal) }
        }
    }

    /// A Unix socket listening at `path` (its descriptor).
    static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = UnixSocket.make(AF_UNIX)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard descriptor >= 0, bound, listen(descriptor, 1) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw POSIXError(.EADDRINUSE)
        }
        return descriptor
    }

    /// Waits until the lines were said and the connection closed.
    func waitUntilDone() {
        finished.wait()
    }

    deinit {
        close(listener)
        if let socketPath { unlink(socketPath) }
    }
}
