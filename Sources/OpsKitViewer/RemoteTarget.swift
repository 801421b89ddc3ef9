import Foundation

/// Where a viewer connects: a Unix socket path, a TCP host and port, or a queue on another host
/// reached through `ssh … opsdash relay`.
public enum RemoteTarget: Sendable, Equatable, CustomStringConvertible {
    case unix(String)
    case tcp(host: String, port: Int)
    /// A queue on another machine, through `ssh … opsdash relay NAME` (`SSHCommand`): the
    /// protocol runs over ssh's standard input and output; a shared-memory stream the far side
    /// names is never opened; a connection that ends before the app's welcome is not retried
    /// (a failed login or a missing queue would fail the same way).
    case ssh(SSHAddress)

    /// A connection: the socket, and for `ssh` the process behind it.
    package struct Link {
        package var descriptor: Int32
        package var channel: SSHChannel?
    }

    /// `tcp://HOST:PORT` (an IPv6 literal in brackets: `tcp://[::1]:7391`),
    /// `ssh://[user@]host[:port][/name]`, or a socket path.
    public init?(parsing text: String) {
        if text.hasPrefix("ssh://") {
            guard let address = SSHAddress(parsing: text) else { return nil }
            self = .ssh(address)
        } else if text.hasPrefix("tcp://") {
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
        case .ssh(let address): address.description
        }
    }

    /// Whether the peer is on this host as this user (only then is a path it names opened).
    var isLocal: Bool { if case .unix = self { true } else { false } }

    /// A connected blocking socket (for `ssh`, one end of a socket pair with `ssh` at the
    /// other), or why not.
    package func connect() -> Result<Link, RemoteError> {
        switch self {
        case .unix(let path):
            return UnixSocket.connect(path).map { Link(descriptor: $0) }
        case .tcp(let host, let port):
            return TCPSocket.connect(host: host, port: port, naming: description).map { Link(descriptor: $0) }
        case .ssh(let address):
            return SSHChannel.open(address).map { Link(descriptor: $0.descriptor, channel: $0.channel) }
        }
    }
}
