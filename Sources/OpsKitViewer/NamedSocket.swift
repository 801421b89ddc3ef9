import Foundation

/// A socket the user named on the command line (`opsdash attach PATH.sock`), e.g. one that
/// `ssh -L` forwards into `/tmp`: it need not live in the runtime directory, but it must be a
/// socket of this user's that nobody else can swap, whatever symlinks lead to it.
public enum NamedSocket {
    /// The real path of `path` (symlinks resolved: connect to this, not to a link someone could
    /// re-point) once it is a socket owned by this user and every directory from it up to `/`
    /// is owned by this user or root and writable by nobody else, or sticky like `/tmp`
    /// (where others cannot replace what is yours).
    public static func verify(_ path: String) throws(RemoteError) -> String {
        guard let resolved = realpath(path, nil) else {
            throw RemoteError("cannot use \(path): \(String(cString: strerror(errno)))")
        }
        let real = String(cString: resolved)
        free(resolved)
        let shown = real == path ? path : "\(path) (\(real))"
        _ = try OwnedPath.check(real, is: S_IFSOCK, "socket", shown: shown)
        var directory = (real as NSString).deletingLastPathComponent
        while true {
            var info = stat()
            guard lstat(directory, &info) == 0 else {
                throw RemoteError("cannot use \(directory): \(String(cString: strerror(errno)))")
            }
            let othersMayWrite = info.st_mode & 0o022 != 0
            let sticky = info.st_mode & S_ISVTX != 0
            guard info.st_uid == geteuid() || info.st_uid == 0 else {
                throw RemoteError(
                    "refusing \(shown): \(directory) is owned by uid \(info.st_uid), who could replace it")
            }
            guard !othersMayWrite || sticky else {
                throw RemoteError(
                    "refusing \(shown): others may replace it in \(directory) (mode \(String(info.st_mode & 0o7777, radix: 8)))"
                )
            }
            if directory == "/" || directory.isEmpty { break }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return real
    }
}
