import Foundation

/// Why a tmux session could not be driven.
struct TmuxError: Error, CustomStringConvertible {
    var description: String
}

/// One tmux server on a private socket running one command in a detached 120×40 session.
/// The server is killed on `kill()` and in deinit, whatever happens in the test.
final class TmuxSession {
    /// The private socket name (`-L`).
    let socket: String
    let tmux: String
    private let target = "opsdash"
    private var killed = false

    /// Marker the wrapper prints when the command ends: `[exit N]`.
    static let exitMarker = "[exit "

    /// Starts `command` (already shell-quoted) under `env LANG=C.UTF-8
    /// SWIFT_BACKTRACE=interactive=no`, with tmux's own TERM so keys decode as tmux sends them. When it ends the pane shows `[exit N]` and
    /// `[tty sane]` or `[tty raw]` (whether `stty` sees icanon and echo), then stays open.
    init(command: String, width: Int = 120, height: Int = 40) throws {
        guard let tmux = tmuxPath() else { throw TmuxError(description: "tmux is not installed") }
        self.tmux = tmux
        socket = "opsdash-\(UUID().uuidString)"
        let wrapped = """
            env LANG=C.UTF-8 SWIFT_BACKTRACE=interactive=no \(command); \
            echo "[exit $?]"; \
            if stty -a | grep -qw -e -icanon -e -echo; then echo "[tty raw]"; else echo "[tty sane]"; fi; \
            exec cat
            """
        try run([
            "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)",
            "sh", "-c", wrapped,
        ])
    }

    deinit { kill() }

    /// The visible screen as text (`capture-pane -p`).
    func capture() throws -> String {
        try run(["capture-pane", "-p", "-t", target])
    }

    /// Whether the pane is in the alternate screen (a full-screen program has it).
    func isAlternateScreen() throws -> Bool {
        try run(["display-message", "-p", "-t", target, "#{alternate_on}"])
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Sends keys as `send-keys` understands them ("q", "C-c", "Enter", "Up").
    func sendKeys(_ keys: String...) throws {
        try run(["send-keys", "-t", target] + keys)
    }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pid of the process running in the pane (the `sh` wrapper).
    func panePID() throws -> Int32? {
        Int32(
            try run(["display-message", "-p", "-t", target, "#{pane_pid}"])
                .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Polls the screen every 50 ms until `predicate` holds or `timeout` passes; returns the
    /// last screen and whether the predicate held.
    @discardableResult
    func waitUntil(
        timeout: Duration = .seconds(10), _ predicate: (String) throws -> Bool
    ) throws -> (matched: Bool, screen: String) {
        let deadline = ContinuousClock.now + timeout
        var screen = ""
        while true {
            screen = try capture()
            if try predicate(screen) { return (true, screen) }
            if ContinuousClock.now >= deadline { return (false, screen) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The exit status printed by the wrapper, if the command has ended.
    func exitStatus(in screen: String) -> Int32? {
        guard let range = screen.range(of: Self.exitMarker) else { return nil }
        let digits = screen[range.upperBound...].prefix { $0.isNumber }
        return Int32(digits)
    }

    /// Kills the tmux server; safe to call more than once.
    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? run(["kill-server"])
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 || arguments.first == "kill-server" else {
            throw TmuxError(
                description: "tmux \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Quotes `text` for `sh`.
func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
