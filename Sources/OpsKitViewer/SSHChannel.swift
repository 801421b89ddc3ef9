import Foundation
import OpsKit

/// A running `ssh … opsdash relay` (see `SSHCommand`): its standard input and output are one
/// end of a socket pair whose other end the viewer reads and writes like any connection; its
/// standard error is read on a thread of its own, keeping only the last line. `ssh` runs in a
/// process group of its own (a Ctrl-C at the terminal is opsdash's to handle) with default
/// signal handling.
package final class SSHChannel: Sendable {
    /// How an `ssh` process ended.
    package struct Ending: Sendable, Equatable {
        /// Its exit status, or 128 + the signal that ended it.
        package var status: Int32
        /// The last line it wrote to standard error (the remote `opsdash relay`'s included).
        package var lastLine: String?
    }

    /// The longest stderr line kept, in characters.
    static let lineLimit = 300

    private let pid: pid_t
    private let address: SSHAddress
    private let tail = OpsMutex<(line: String?, partial: [UInt8], done: Bool)>((nil, [], false))

    private init(pid: pid_t, address: SSHAddress) {
        self.pid = pid
        self.address = address
    }

    /// Starts `ssh` for `address` (`listing`: running `relay --list` there); the viewer's end of
    /// the socket pair and the channel, or why not.
    package static func open(_ address: SSHAddress, command: SSHCommand = SSHCommand(), listing: Bool = false)
        -> Result<
            (descriptor: Int32, channel: SSHChannel), RemoteError
        >
    {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, UnixSocket.streamType, 0, &pair) == 0 else {
            return .failure(RemoteError("socketpair: \(String(cString: strerror(errno)))"))
        }
        var errors: [Int32] = [-1, -1]
        guard pipe(&errors) == 0 else {
            let reason = String(cString: strerror(errno))
            close(pair[0])
            close(pair[1])
            return .failure(RemoteError("pipe: \(reason)"))
        }
        // Only `ssh` gets these, as its 0, 1 and 2 (a later `ssh`, reconnecting, gets none).
        for descriptor in pair + errors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let arguments = command.arguments(for: address, listing: listing)
        let spawned = spawn(arguments, input: pair[1], errors: errors[1])
        close(pair[1])
        close(errors[1])
        switch spawned {
        case .failure(let error):
            close(pair[0])
            close(errors[0])
            return .failure(error)
        case .success(let pid):
            let channel = SSHChannel(pid: pid, address: address)
            let reader = errors[0]
            Thread.detachNewThread { channel.readErrors(reader) }
            return .success((pair[0], channel))
        }
    }

    private static func spawn(_ arguments: [String], input: Int32, errors: Int32) -> Result<pid_t, RemoteError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, input, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard status == 0 else {
            return .failure(RemoteError("cannot run \(arguments[0]): \(String(cString: strerror(status)))"))
        }
        return .success(pid)
    }

    /// Reads `ssh`'s standard error to its end, keeping the last non-empty line (control
    /// characters shown as `?`, at most `lineLimit` characters).
    private func readErrors(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            tail.withLock { tail in
                for byte in chunk[0..<count] {
                    if byte == UInt8(ascii: "\n") {
                        if let line = Self.line(tail.partial) { tail.line = line }
                        tail.partial.removeAll(keepingCapacity: true)
                    } else if tail.partial.count < Self.lineLimit * 4 {
                        tail.partial.append(byte)
                    }
                }
            }
        }
        close(descriptor)
        tail.withLock { tail in
            if let line = Self.line(tail.partial) { tail.line = line }
            tail.done = true
        }
    }

    /// `bytes` as one printable line, or nil when blank.
    static func line(_ bytes: [UInt8]) -> String? {
        var bytes = bytes[...]
        while bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        let text = String(decoding: bytes, as: UTF8.self)
            .unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) }
        let line = String(String(text).trimmingCharacters(in: .whitespaces).prefix(lineLimit))
        return line.isEmpty ? nil : line
    }

    /// Waits for `ssh` to end once the viewer closed its end (`ssh` then closes the channel):
    /// up to `grace`, then SIGTERM, then after as long again SIGKILL. How it ended.
    package func finish(grace: Duration = .milliseconds(1_500)) -> Ending {
        var status: Int32 = 0
        var deadline = ContinuousClock.now + grace
        var signalled: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now >= deadline {
                signalled = signalled == 0 ? SIGTERM : SIGKILL
                kill(pid, signalled)
                deadline = ContinuousClock.now + grace
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        // The last stderr line arrives with the end of the pipe, just after the exit (bounded).
        let lineDeadline = ContinuousClock.now + .milliseconds(500)
        while !tail.withLock({ $0.done }), ContinuousClock.now < lineDeadline { Thread.sleep(forTimeInterval: 0.005) }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Ending(status: code, lastLine: tail.withLock { $0.line })
    }

    /// Why a connection over this channel ended, from how `ssh` ended: "ssh: connect to host
    /// db-3 port 22: Connection refused (ssh exit 255)", "no published queue named x in … (ssh
    /// exit 2)"; the remote opsdash's "opsdash: " prefix is dropped. Nil for a clean exit
    /// with nothing said.
    package static func reason(_ ending: Ending) -> String? {
        guard ending.status != 0 || ending.lastLine != nil else { return nil }
        var line = ending.lastLine ?? "ssh ended"
        if line.hasPrefix("opsdash: ") { line.removeFirst(9) }
        return ending.status == 0 ? line : "\(line) (ssh exit \(ending.status))"
    }
}
