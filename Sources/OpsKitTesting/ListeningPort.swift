import Foundation

/// A TCP port on 127.0.0.1 held by a socket for the value's lifetime: listening (a port that is
/// taken, to see an app refuse it), or only bound (a port that is free again once released,
/// for an app to take right after).
public final class ListeningPort {
    /// The port number.
    public let port: Int
    private var descriptor: Int32

    /// Binds a port the system picks; listens on it when `listening`. Throws when no socket
    /// could be bound.
    public init(listening: Bool = true) throws {
        (descriptor, port) = try Self.loopbackSocket(listening: listening)
    }

    /// A TCP socket bound to a port the system picks on 127.0.0.1, listening when `listening`:
    /// its descriptor (the caller closes it) and port. Throws when none could be bound.
    package static func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 1) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            if descriptor >= 0 { close(descriptor) }
            throw CocoaError(.fileWriteUnknown)
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing uses now: bound to find it, then released.
    public static func free() throws -> Int {
        let bound = try ListeningPort(listening: false)
        defer { bound.release() }
        return bound.port
    }

    /// Closes the socket now (the port may be taken by anyone after).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
