import Foundation

extension RemoteViewer {
    /// What the viewer says when the Unix socket it was attached to no longer exists:
    /// "socket /run/…/x.sock gone: the app stopped publishing", and when the same app/queue is
    /// published again in that socket's directory, where ("…; AppExample/images is published
    /// again at /run/…/y.sock"). `republished` is that new socket (for a viewer to follow).
    struct SocketGone: Sendable, Equatable {
        var path: String
        var label: String?
        var republished: String?

        /// One line for the header and stderr.
        var text: String {
            let gone = "socket \(path) gone: the app stopped publishing"
            guard let label, let republished else { return gone }
            return "\(gone); \(label) is published again at \(republished)"
        }

        /// Whether `path` no longer exists (a socket that exists but refuses connections is not
        /// gone: the app may be restarting in place, or was killed and left it behind).
        static func isGone(_ path: String) -> Bool {
            var info = stat()
            return lstat(path, &info) != 0 && errno == ENOENT
        }

        /// Nil while `path` exists; else what to say, looking for `label` (the app/queue the
        /// viewer was welcomed by) among the queues published next to `path`, only in a
        /// directory that is this user's alone.
        static func check(_ path: String, label: String?) -> SocketGone? {
            guard isGone(path) else { return nil }
            var gone = SocketGone(path: path, label: label)
            let directory = (path as NSString).deletingLastPathComponent
            if let label, (try? RuntimeDirectory.verify(directory)) != nil {
                gone.republished =
                    PublishedQueue.list(in: directory).last { $0.label == label && $0.socket != path }?.socket
            }
            return gone
        }
    }

    /// When the viewer's Unix socket is gone, what it says (see `SocketGone.text`); nil while
    /// connected, for TCP, or while the socket exists.
    package var socketGone: String? { state.withLock { $0.socketGone?.text } }
}
