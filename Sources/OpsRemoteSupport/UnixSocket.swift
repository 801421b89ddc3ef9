import Foundation

/// Small blocking Unix-socket helpers (the stale-socket probe, the viewer's connection).
package enum UnixSocket {
    /// `SOCK_STREAM` as `socket(2)` takes it on this platform.
    package static var streamType: Int32 {
        #if canImport(Darwin)
        SOCK_STREAM
        #else
        Int32(SOCK_STREAM.rawValue)
        #endif
    }

    /// `send(2)` flags that keep a closed peer from raising SIGPIPE (0 where SO_NOSIGPIPE is used instead).
    package static var noSignal: Int32 {
        #if canImport(Darwin)
        0
        #else
        Int32(MSG_NOSIGNAL)
        #endif
    }

    /// Whether `descriptor` is a Unix-domain socket (not TCP), as the kernel says.
    package static func isUnixSocket(_ descriptor: Int32) -> Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return named == 0 && Int32(address.ss_family) == AF_UNIX
    }

    /// A new stream socket of `family` (on Darwin with SO_NOSIGPIPE set).
    package static func make(_ family: Int32) -> Int32 {
        let descriptor = socket(family, streamType, 0)
        #if canImport(Darwin)
        if descriptor >= 0 {
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        #endif
        return descriptor
    }

    /// A connected socket to `path`, or the errno of the failure. `nonBlocking`: the socket is
    /// made non-blocking before it connects, so a listener whose backlog is full fails the
    /// connect (EAGAIN) instead of holding the caller.
    package static func connect(_ path: String, nonBlocking: Bool = false) -> Result<Int32, RemoteError> {
        let descriptor = make(AF_UNIX)
        guard descriptor >= 0 else { return .failure(RemoteError("socket: \(String(cString: strerror(errno)))")) }
        if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(descriptor)
            return .failure(RemoteError("socket path too long: \(path)"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, to: $0, length: socklen_t(MemoryLayout<sockaddr_un>.size), naming: path)
            }
        }
    }

    /// Connects `descriptor` to the socket address at `address` (`length` bytes: a Unix path or
    /// a resolved TCP address); on failure closes it and says why, naming the target as
    /// `description`.
    package static func connect(
        _ descriptor: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t, naming description: String
    ) -> Result<Int32, RemoteError> {
        guard Foundation.connect(descriptor, address, length) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure(RemoteError("cannot connect to \(description): \(reason)"))
        }
        return .success(descriptor)
    }

    /// Whether something accepts connections on `path`.
    package static func canConnect(_ path: String) -> Bool {
        guard case .success(let descriptor) = connect(path) else { return false }
        close(descriptor)
        return true
    }
}
