import Foundation
import NIOCore

/// The uid (and, on Linux, pid) of a Unix socket's peer, as the kernel reports it
/// (`SO_PEERCRED` on Linux, `LOCAL_PEERCRED` on macOS); nil when it cannot be read.
enum PeerCredentials {
    static func of(_ channel: Channel) -> EventLoopFuture<(uid: UInt32, pid: Int32?)?> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        #if canImport(Darwin)
        let future: EventLoopFuture<xucred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_LOCAL), name: LOCAL_PEERCRED)
        return future.map { Optional((uid: UInt32($0.cr_uid), pid: nil)) }.recover { _ in nil }
        #else
        // `struct ucred` (pid, uid, gid); Glibc hides it behind _GNU_SOURCE, so the layout is spelled out.
        let future: EventLoopFuture<PeerCredential> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(17))  // SO_PEERCRED
        return future.map { Optional((uid: $0.uid, pid: Optional($0.pid))) }.recover { _ in nil }
        #endif
    }
}

/// Linux's `struct ucred`.
struct PeerCredential: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
