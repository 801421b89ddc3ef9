import Foundation

/// A secret for TCP viewers, kept in a file only its owner can read (mode 0600).
public enum TokenFile {
    /// The token in `path`; with `create`, a new random one is written there first when the file
    /// does not exist. Refuses a file that group or others can read, or that another user owns.
    public static func load(_ path: String, create: Bool = false) throws(RemoteError) -> String {
        if create, access(path, F_OK) != 0 {
            var bytes = [UInt8](repeating: 0, count: 32)
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            let token = bytes.map { String(format: "%02x", $0) }.joined() + "\n"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw RemoteError("cannot create token file \(path): \(String(cString: strerror(errno)))")
            }
            let data = Array(token.utf8)
            let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == data.count else { throw RemoteError("cannot write token file \(path)") }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw RemoteError("cannot read token file \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            throw RemoteError("refusing token file \(path): not a regular file owned by uid \(geteuid())")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw RemoteError(
                "refusing token file \(path): mode \(String(info.st_mode & 0o777, radix: 8)) lets others read it (needs 600)"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4_096,
            let text = String(data: data, encoding: .utf8)
        else { throw RemoteError("cannot read token file \(path)") }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16 else {
            throw RemoteError("refusing token file \(path): token shorter than 16 characters")
        }
        return token
    }
}
