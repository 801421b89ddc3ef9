import Foundation
import OpsKitTesting

/// A real OpenSSH server (Debian's `openssh-server`, `/usr/sbin/sshd`) for the `ssh://` attach
/// tests: started as the current user on a free 127.0.0.1 port with its own `sshd_config`, a
/// throwaway host key and a throwaway user key in a temporary directory; only that key logs in
/// (root too, as in CI: `PermitRootLogin prohibit-password`). Stopped, and the directory
/// removed, in deinit.
final class SSHServer {
    static let sshdPath = "/usr/sbin/sshd"

    /// Why these tests cannot run here (no sshd, ssh or ssh-keygen), or nil. CI installs them
    /// (`.ci/run`), so there a missing one fails instead.
    static var missing: String? {
        if !FileManager.default.isExecutableFile(atPath: sshdPath) {
            return "\(sshdPath) is not installed (openssh-server)"
        }
        for tool in ["ssh", "ssh-keygen"] where executableOnPath(tool) == nil {
            return "\(tool) is not on PATH (openssh-client)"
        }
        return nil
    }

    /// Whether to run the tests: everything is installed, or this is CI (where missing fails).
    static var enabled: Bool { missing == nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    let directory: String
    let port: Int
    /// The key the server accepts.
    let userKey: String
    /// A key the server does not accept.
    let strangerKey: String

    init() throws {
        if let missing = Self.missing { throw SSHServerError(missing) }
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-sshd-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        userKey = directory + "/user_key"
        strangerKey = directory + "/stranger_key"
        for key in [directory + "/host_key", userKey, strangerKey] {
            try Self.run(executableOnPath("ssh-keygen") ?? "ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key])
        }
        try FileManager.default.copyItem(atPath: userKey + ".pub", toPath: directory + "/authorized_keys")
        // Privilege separation, when sshd runs as root, needs this directory (a container may lack it).
        if geteuid() == 0, !FileManager.default.fileExists(atPath: "/run/sshd") {
            try FileManager.default.createDirectory(
                atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        port = try ListeningPort.free()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(directory)/host_key
            AuthorizedKeysFile \(directory)/authorized_keys
            PidFile \(directory)/sshd.pid
            UsePAM no
            StrictModes no
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            LogLevel ERROR

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/sshd_config"))
        // Daemonized (not -D): a child that outlives the test's other children is one Foundation's
        // Process would wait on; its pid comes from the PidFile, and deinit ends it.
        try Self.run(Self.sshdPath, ["-f", directory + "/sshd_config", "-E", directory + "/sshd.log"])
        let deadline = ContinuousClock.now + .seconds(20)
        while !acceptsConnections() {
            guard ContinuousClock.now < deadline else {
                let log = (try? String(contentsOfFile: directory + "/sshd.log", encoding: .utf8)) ?? ""
                throw SSHServerError("sshd did not start on 127.0.0.1:\(port): \(log)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The environment for `opsdash attach ssh://127.0.0.1:PORT/…` logging in with `key`
    /// (default: the accepted one) and running `opsdash` (the built binary) there with
    /// `XDG_RUNTIME_DIR` set to `runtime` (the published app's).
    func environment(runtime: String, key: String? = nil) throws -> [String: String] {
        let opsdash = try OpsdashBuild.debug.binary()
        return [
            "OPSDASH_SSH_COMMAND":
                "ssh -i \(key ?? userKey) -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR",
            "OPSDASH_REMOTE_COMMAND": "XDG_RUNTIME_DIR=\(runtime) \(opsdash)",
            "SSH_AUTH_SOCK": "",
        ]
    }

    /// `ssh://127.0.0.1:PORT`, then `/name` when given.
    func url(_ name: String? = nil) -> String {
        "ssh://127.0.0.1:\(port)" + (name.map { "/\($0)" } ?? "")
    }

    private func acceptsConnections() -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SSHServerError(
                "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    deinit {
        let pidText = (try? String(contentsOfFile: directory + "/sshd.pid", encoding: .utf8)) ?? ""
        if let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1, kill(pid, SIGTERM) == 0 {
            // sshd removes its PidFile as it exits: removing the directory meanwhile would fail
            // half way, so wait (bounded) until it is gone.
            let deadline = ContinuousClock.now + .seconds(5)
            while kill(pid, 0) == 0, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }
        if (try? FileManager.default.removeItem(atPath: directory)) == nil {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// Why the test sshd could not be set up.
struct SSHServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
