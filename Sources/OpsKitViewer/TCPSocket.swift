import Foundation

/// The viewer's blocking TCP connection: the host is resolved with `getaddrinfo`, so IPv4 and
/// IPv6 literals and names (`localhost`, `::1`, `db-3.internal`) all work; each address is
/// tried in the resolver's order until one accepts.
enum TCPSocket {
    /// A connected socket to `host`:`port`, or why not (naming the target as `description`).
    static func connect(host: String, port: Int, naming description: String) -> Result<Int32, RemoteError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = UnixSocket.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(RemoteError("cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var result = Result<Int32, RemoteError>.failure(RemoteError("cannot connect to \(description): no address"))
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            entry = current.pointee.ai_next
            guard let address = current.pointee.ai_addr else { continue }
            let descriptor = UnixSocket.make(current.pointee.ai_family)
            guard descriptor >= 0 else {
                result = .failure(RemoteError("cannot connect to \(description): \(String(cString: strerror(errno)))"))
                continue
            }
            result = UnixSocket.connect(
                descriptor, to: address, length: current.pointee.ai_addrlen, naming: description)
            if case .success = result { return result }
        }
        return result
    }
}
