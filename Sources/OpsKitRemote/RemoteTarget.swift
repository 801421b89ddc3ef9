import Foundation

/// Where a viewer connects: a Unix socket path, or a TCP host and port.
public enum RemoteTarget: Sendable, Equatable, CustomStringConvertible {
    case unix(String)
    case tcp(host: String, port: Int)

    /// `tcp://HOST:PORT` (an IPv6 literal in brackets: `tcp://[::1]:7391`), or a socket path.
    public init?(parsing text: String) {
        if text.hasPrefix("tcp://") {
            let rest = text.dropFirst(6)
            guard let colon = rest.lastIndex(of: ":"), colon > rest.startIndex else { return nil }
            let digits = rest[rest.index(after: colon)...]
            // Digits only: `Int` alone would take "+7391".
            guard digits.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(digits), (1...65_535).contains(port)
            else { return nil }
            var host = rest[..<colon]
            if host.hasPrefix("[") {
                guard host.hasSuffix("]"), host.count > 2 else { return nil }
                host = host.dropFirst().dropLast()
            } else if host.contains(":") {
                return nil
            }
            self = .tcp(host: String(host), port: port)
        } else if text.contains("/") || text.hasSuffix(".sock") {
            self = .unix(text)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .unix(let path): path
        case .tcp(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        }
    }

    /// A connected blocking socket, or why not.
    func connect() -> Result<Int32, RemoteError> {
        switch self {
        case .unix(let path):
            return UnixSocket.connect(path)
        case .tcp(let host, let port):
            return TCPSocket.connect(host: host, port: port, naming: description)
        }
    }
}
