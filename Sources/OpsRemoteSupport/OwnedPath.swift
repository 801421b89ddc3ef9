import Foundation

/// The first checks of a path the remote layer trusts: it exists, is of the expected kind and
/// belongs to this user (the runtime directory, a socket named on the command line).
package enum OwnedPath {
    /// `path`'s status once it is a `kind` (`S_IFDIR`, `S_IFSOCK`, …; `what` names it in the
    /// error) owned by this user; a symlink is not followed. Errors name it `shown`.
    package static func check(_ path: String, is kind: mode_t, _ what: String, shown: String? = nil) throws(RemoteError)
        -> stat
    {
        let name = shown ?? path
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw RemoteError("cannot use \(name): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == kind else {
            throw RemoteError("refusing \(name): not a \(what)")
        }
        guard info.st_uid == geteuid() else {
            throw RemoteError("refusing \(name): owned by uid \(info.st_uid), not \(geteuid())")
        }
        return info
    }
}
