import Foundation
@_spi(OpsDashInternals) import OpsKitViewer

/// The machines an operator watches over ssh, listed in `$XDG_CONFIG_HOME/opsdash/hosts`
/// (`~/.config/opsdash/hosts` when `XDG_CONFIG_HOME` is unset or not absolute), for the fleet
/// list. One host a line: an `ssh://[USER@]HOST[:PORT][/NAME]` address, optionally after a label
/// (letters, digits, `.`, `_`, `-`; default: the host); `#` starts a comment, blank lines are
/// skipped:
///
///     # opsdash hosts
///     db-3      ssh://ops@db-3.internal/images
///     ssh://build-1:2222
///
/// A file that is missing lists no hosts. One that another user owns or others may write is
/// refused (it says where opsdash runs ssh), and so is a bad line, naming the file and line.
enum HostsFile {
    /// One configured host.
    struct Host: Sendable, Equatable {
        /// What the fleet list calls it.
        var label: String
        var address: SSHAddress
        /// Where it is in the file (1-based).
        var line: Int
    }

    /// Why the hosts file cannot be used (one line, naming the file and the line).
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The most hosts a file may list, and its largest size in bytes.
    static let hostLimit = 1_000
    static let byteLimit = 256 * 1_024

    /// Where the hosts file is for `environment`.
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/opsdash/hosts" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/opsdash/hosts"
    }

    /// The configured hosts, in the file's order: none when the file does not exist.
    static func hosts(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<
        [Host], Problem
    > {
        let path = path(environment: environment)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return .success([]) }
            return .failure(Problem(description: "cannot read \(path): \(String(cString: strerror(errno)))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
            return .failure(Problem(description: "refusing \(path): not a regular file owned by uid \(geteuid())"))
        }
        guard info.st_mode & 0o022 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return .failure(Problem(description: "refusing \(path): mode \(mode) lets others change it"))
        }
        guard info.st_size <= byteLimit else {
            return .failure(Problem(description: "refusing \(path): larger than \(byteLimit / 1_024) KiB"))
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= byteLimit else {
            return .failure(Problem(description: "cannot read \(path)"))
        }
        return parse(String(decoding: data, as: UTF8.self), file: path)
    }

    /// The hosts `text` lists (read from `file`, named in problems).
    static func parse(_ text: String, file: String) -> Result<[Host], Problem> {
        var hosts: [Host] = []
        var seen: [String: Int] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let content = raw.prefix { $0 != "#" }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !fields.isEmpty else { continue }
            func problem(_ what: String) -> Result<[Host], Problem> {
                .failure(Problem(description: "\(file):\(number): \(what)"))
            }
            guard fields.count <= 2 else { return problem("expected [LABEL] ssh://[USER@]HOST[:PORT][/NAME]") }
            let text = String(fields[fields.count - 1])
            guard let address = SSHAddress(parsing: text) else {
                return problem("bad address \(Self.shown(text)): expected ssh://[USER@]HOST[:PORT][/NAME]")
            }
            let label = fields.count == 2 ? String(fields[0]) : address.host
            guard isLabel(label) else {
                return problem("bad label \(Self.shown(label)): letters, digits, '.', '_' and '-' only")
            }
            if let first = seen[label] { return problem("\(label) is listed twice (line \(first) too)") }
            guard hosts.count < hostLimit else { return problem("more than \(hostLimit) hosts") }
            seen[label] = number
            hosts.append(Host(label: label, address: address, line: number))
        }
        return .success(hosts)
    }

    private static func isLabel(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// `text` for a one-line message: control characters as `?`, at most 80 characters.
    private static func shown(_ text: String) -> String {
        let printable = String(
            text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return printable.count > 80 ? printable.prefix(80) + "…" : printable
    }
}
