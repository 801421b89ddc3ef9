/// Where `opsdash attach ssh://[user@]host[:port][/name]` goes: the host (and user and port)
/// `ssh` logs in to, and the published queue `opsdash relay` attaches to there (nil: the only
/// one). Every part is checked, since it becomes an `ssh` argument or a remote shell word.
public struct SSHAddress: Sendable, Equatable, CustomStringConvertible {
    public var user: String?
    public var host: String
    public var port: Int?
    /// A queue name, `app/queue` or app name on the remote host; nil: the only published queue.
    public var name: String?

    /// Parses `ssh://[user@]host[:port][/name]` (an IPv6 host in brackets: `ssh://[::1]:22`);
    /// nil unless every part is well formed: a user and host of letters, digits, `.`, `_` and
    /// `-` not starting with `-`, a port 1...65535, a name of letters, digits, `.`, `_`, `-`,
    /// `@`, `+` and at most one `/`, not starting with `-` or `.`.
    public init?(parsing text: String) {
        guard text.hasPrefix("ssh://") else { return nil }
        let rest = text.dropFirst(6)
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let name = rest[rest.index(after: slash)...]
            if !name.isEmpty {
                guard Self.isName(name) else { return nil }
                self.name = String(name)
            }
        }
        if let at = authority.firstIndex(of: "@") {
            let user = authority[..<at]
            guard Self.isWord(user) else { return nil }
            self.user = String(user)
            authority = authority[authority.index(after: at)...]
        }
        var hostPart = authority
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            guard !hostPart.isEmpty, hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return nil
            }
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let port = Self.port(after.dropFirst()) else { return nil }
                self.port = port
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                hostPart = authority[..<colon]
                guard let port = Self.port(authority[authority.index(after: colon)...]) else { return nil }
                self.port = port
            }
            guard Self.isWord(hostPart) else { return nil }
        }
        host = String(hostPart)
    }

    /// `ssh://user@host:port/name` as given (an IPv6 host in brackets).
    public var description: String {
        var text = "ssh://"
        if let user { text += "\(user)@" }
        text += host.contains(":") ? "[\(host)]" : host
        if let port { text += ":\(port)" }
        if let name { text += "/\(name)" }
        return text
    }

    /// Letters, digits, `.`, `_`, `-`; not empty, not starting with `-` (never an `ssh` option).
    private static func isWord(_ text: Substring) -> Bool {
        guard let first = text.first, first != "-" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first != "-", first != ".", text.count <= 255,
            text.filter({ $0 == "/" }).count <= 1, !text.hasSuffix("/")
        else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-@+/".contains($0)) }
    }

    private static func port(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ ("0"..."9").contains($0) }),
            let port = Int(digits), (1...65_535).contains(port)
        else { return nil }
        return port
    }
}
