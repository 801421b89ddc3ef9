import Foundation

/// A plain TCP client on 127.0.0.1 for talking to a server byte by byte, and seeing when it
/// closes the connection. Every read waits at most `readLimit` (a bound, not a pace).
final class LoopbackClient {
    enum Failure: Error { case socket(String) }

    /// What a read saw.
    enum Read: Equatable {
        case bytes([UInt8])
        /// The server closed the connection (end of file, or a reset).
        case closed
        /// Nothing within the read limit.
        case timedOut
    }

    private let descriptor: Int32

    init(port: Int, readLimit: Duration = .seconds(15)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.socket("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure.socket("connect: \(errno)")
        }
        var limit = timeval(tv_sec: Int(readLimit.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends `bytes`; false if the connection is gone (no SIGPIPE).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// One read of what has arrived (waiting for something, up to the read limit).
    func read() -> Read {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        if count == 0 || errno == ECONNRESET { return .closed }
        return .timedOut
    }

    /// Whether the server has closed the connection or sent something, waiting up to `timeout`.
    func readable(within timeout: Duration) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        let milliseconds = Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// Everything until the server closes the connection: the text, and whether it did close
    /// (false: the read limit passed with the connection still open).
    func readUntilClosed() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        while true {
            switch read() {
            case .bytes(let bytes): received += bytes
            case .closed: return (String(decoding: received, as: UTF8.self), true)
            case .timedOut: return (String(decoding: received, as: UTF8.self), false)
            }
        }
    }

    /// One whole response with a `Content-Length` (headers and body), reading until it is in.
    func readResponse() -> String? {
        var received: [UInt8] = []
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text[..<end.upperBound].utf8.count >= length { return text }
            }
            guard case .bytes(let bytes) = read() else { return nil }
            received += bytes
        }
    }
}
