import Foundation

/// Where a viewer connects: a Unix socket path, or a TCP host and port.
public enum RemoteTarget: Sendable, Equatable, CustomStringConvertible {
    case unix(String)
    case tcp(host: String, port: Int)

    /// `tcp://HOST:PORT`, or a socket path.
    public init?(parsing text: String) {
        if text.hasPrefix("tcp://") {
            let rest = text.dropFirst(6)
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                (1...65_535).contains(port), colon > rest.startIndex
            else { return nil }
            self = .tcp(host: String(rest[..<colon]), port: port)
        } else if text.contains("/") || text.hasSuffix(".sock") {
            self = .unix(text)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): "tcp://\(host):\(port)"
        }
    }

    /// A connected blocking socket, or why not.
    func connect() -> Result<Int32, RemoteError> {
        switch self {
        case .unix(let path):
            return UnixSocket.connect(path)
        case .tcp(let host, let port):
            let literal = host == "localhost" ? "127.0.0.1" : host
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else {
                return .failure(RemoteError("\(description): only IPv4 addresses are supported"))
            }
            let descriptor = UnixSocket.make(AF_INET)
            guard descriptor >= 0 else { return .failure(RemoteError("socket: \(String(cString: strerror(errno)))")) }
            return UnixSocket.connect(descriptor, to: address, naming: description)
        }
    }
}
