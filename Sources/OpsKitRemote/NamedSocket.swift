import Foundation

/// A socket the user named on the command line (`opsdash attach PATH.sock`), e.g. one that
/// `ssh -L` forwards into `/tmp`: it need not live in the runtime directory, but it must be a
/// socket of this user's in a directory where nobody else can swap it.
public enum NamedSocket {
    /// Checks that `path` is a socket owned by this user whose directory others cannot change,
    /// or can change only their own entries (the sticky bit, as on `/tmp`).
    public static func verify(_ path: String) throws(RemoteError) {
        // Followed through a symlink: what counts is the socket it reaches, and whose it is.
        _ = try OwnedPath.check(path, is: S_IFSOCK, "socket", followingLinks: true)
        let directory = (path as NSString).deletingLastPathComponent
        var parent = stat()
        guard stat(directory.isEmpty ? "." : directory, &parent) == 0 else {
            throw RemoteError("cannot use \(directory): \(String(cString: strerror(errno)))")
        }
        let othersMayWrite = parent.st_mode & 0o022 != 0
        let sticky = parent.st_mode & S_ISVTX != 0
        guard parent.st_uid == geteuid() || parent.st_uid == 0, !othersMayWrite || sticky else {
            throw RemoteError(
                "refusing \(path): others may replace it in \(directory) (mode \(String(parent.st_mode & 0o7777, radix: 8)))"
            )
        }
    }
}
