import Foundation

/// The per-user directory that holds publishers' sockets and sidecars:
/// `$XDG_RUNTIME_DIR/opsdash/`, or `$TMPDIR/opsdash-<uid>/` (TMPDIR defaulting to /tmp).
/// It must be a real directory (not a symlink), owned by this user, with no access for group or
/// others; anything else is refused, since some systems ignore a socket's own mode.
public enum RuntimeDirectory {
    /// The directory for this user and environment.
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime as NSString).appendingPathComponent("opsdash")
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return (temporary as NSString).appendingPathComponent("opsdash-\(geteuid())")
    }

    /// Creates the directory (mode 0700) if missing and verifies its owner and mode.
    @discardableResult
    public static func prepare(_ path: String) throws(RemoteError) -> String {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw RemoteError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        try verify(path)
        return path
    }

    /// Checks that `path` is a directory owned by this user with mode 0700 or stricter.
    public static func verify(_ path: String) throws(RemoteError) {
        let info = try OwnedPath.check(path, is: S_IFDIR, "directory")
        guard info.st_mode & 0o077 == 0 else {
            throw RemoteError(
                "refusing \(path): mode \(String(info.st_mode & 0o777, radix: 8)) lets others in (needs 700)")
        }
    }
}
