import Foundation

/// The first checks of a path the remote layer trusts: it exists, is of the expected kind and
/// belongs to this user (the runtime directory, a socket named on the command line).
enum OwnedPath {
    /// `path`'s status once it is a `kind` (`S_IFDIR`, `S_IFSOCK`, …; `what` names it in the
    /// error) owned by this user; a symlink is followed only with `followingLinks`.
    static func check(_ path: String, is kind: mode_t, _ what: String, followingLinks: Bool) throws(RemoteError)
        -> stat
    {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            throw RemoteError("cannot use \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == kind else {
            throw RemoteError("refusing \(path): not a \(what)")
        }
        guard info.st_uid == geteuid() else {
            throw RemoteError("refusing \(path): owned by uid \(info.st_uid), not \(geteuid())")
        }
        return info
    }
}
