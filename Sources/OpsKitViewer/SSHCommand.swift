import Foundation

/// The `ssh` command line that reaches `opsdash relay` on another host: `OPSDASH_SSH_COMMAND`
/// (default `ssh`, split at spaces, its options before opsdash's so they win), then `-T -o
/// BatchMode=yes -o ConnectTimeout=10` (no terminal, no password prompt), the port and user, `--`
/// and the host, and the remote command: `OPSDASH_REMOTE_COMMAND` (default `opsdash`, as the
/// remote shell reads it) followed by `relay` and the quoted queue name (or `relay --list`, for
/// the fleet list of that host).
package struct SSHCommand: Sendable, Equatable {
    /// The local `ssh` and its options.
    package var ssh: [String]
    /// The remote command before `relay`, e.g. `/opt/bin/opsdash`.
    package var remote: String

    /// Reads `OPSDASH_SSH_COMMAND` and `OPSDASH_REMOTE_COMMAND` from `environment`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let words = (environment["OPSDASH_SSH_COMMAND"] ?? "").split(separator: " ").map(String.init)
        ssh = words.isEmpty ? ["ssh"] : words
        let remote = environment["OPSDASH_REMOTE_COMMAND"]?.trimmingCharacters(in: .whitespaces) ?? ""
        self.remote = remote.isEmpty ? "opsdash" : remote
    }

    /// The argument vector for `address` (the program first); `listing`: `relay --list` (the
    /// address's name is not used).
    package func arguments(for address: SSHAddress, listing: Bool = false) -> [String] {
        var arguments = ssh + ["-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10"]
        if let port = address.port { arguments += ["-p", String(port)] }
        if let user = address.user { arguments += ["-l", user] }
        var command = remote + " relay"
        if listing {
            command += " --list"
        } else if let name = address.name {
            command += " '\(name)'"
        }  // `SSHAddress` names hold no quote
        return arguments + ["--", address.host, command]
    }
}
