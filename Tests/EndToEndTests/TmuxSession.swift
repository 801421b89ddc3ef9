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

    /// Starts `command` (already shell-quoted) under `env -u NO_COLOR LANG=C.UTF-8
    /// SWIFT_BACKTRACE=interactive=no` (a user's terminal: `swift test` sets `NO_COLOR`), with
    /// tmux's own TERM so keys decode as tmux sends them. When it ends the pane shows `[exit N]` and
    /// `[tty sane]` or `[tty raw]` (whether `stty` sees icanon and echo), then stays open.
    ///
    /// With `runtimeBacktraceSetting` false the command runs with `SWIFT_BACKTRACE` unset, i.e.
    /// with the Swift runtime's defaults, as a user's shell runs it.
    init(command: String, width: Int = 120, height: Int = 40, runtimeBacktraceSetting: Bool = true) throws {
        guard let tmux = tmuxPath() else { throw TmuxError(description: "tmux is not installed") }
        self.tmux = tmux
        socket = "opsdash-\(UUID().uuidString)"
        let wrapped = """
            trap : INT QUIT; env -u NO_COLOR \(runtimeBacktraceSetting ? "" : "-u SWIFT_BACKTRACE ")LANG=C.UTF-8 \
            \(runtimeBacktraceSetting ? "SWIFT_BACKTRACE=interactive=no " : "")\(command); \
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

    /// The visible screen with its attributes and colours as escape sequences (`capture-pane -e`).
    func captureWithEscapes() throws -> String {
        try run(["capture-pane", "-p", "-e", "-t", target])
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

    /// Ends the session: tmux hangs up its terminal (SIGHUP to its processes, the terminal
    /// closed), as when a terminal window or an ssh connection closes.
    func killSession() throws {
        try run(["kill-session", "-t", target])
    }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The pane's terminal device (`/dev/pts/N`), where another program's output would land.
    func paneTTY() throws -> String {
        try run(["display-message", "-p", "-t", target, "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pid of the process running in the pane (the `sh` wrapper).
    func panePID() throws -> Int32? {
        Int32(
            try run(["display-message", "-p", "-t", target, "#{pane_pid}"])
                .trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Polls the screen every 50 ms until `predicate` holds or `timeout` passes; returns the
    /// last screen and whether the predicate held. The default allows 30 s: in the full parallel
    /// run on 2 cores a screen can take seconds to follow a key (it returns as soon as it holds).
    @discardableResult
    func waitUntil(
        timeout: Duration = .seconds(30), _ predicate: (String) throws -> Bool
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
        let result = try spawnAndWait(tmux, ["-L", socket, "-f", "/dev/null"] + arguments)
        guard result.status == 0 || arguments.first == "kill-server" else {
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) exited \(result.status)")
        }
        return result.output
    }
}

/// Runs `executable` with `arguments` via posix_spawn and waitpid, stdout to a temporary file,
/// every descriptor above 2 closed in the child.
///
/// Not `Process`: `tmux new-session` daemonizes a server that inherits the descriptor
/// Foundation watches to learn the child exited, so `waitUntilExit` would never return.
func spawnAndWait(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("opsdash-spawn-\(UUID().uuidString)").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // Tests run in parallel: without this the tmux server would inherit other tests' pipe ends
    // and keep them open, so their readers would never see end-of-file.
    closeFrom(&actions, 3)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // The test runner's threads block signals, and a spawned process inherits the mask: the
    // tmux server, and every pane under it, would never see SIGHUP or SIGTERM (kill-server then
    // waits forever for panes that ignore its SIGHUP). Start with nothing blocked and default
    // dispositions, as a shell would.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard spawned == 0 else { throw TmuxError(description: "could not start \(executable): error \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return (exitStatus, output)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift's Glibc module
/// doesn't export; looked up at run time.
private func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
    let function = unsafeBitCast(symbol, to: CloseFrom.self)
    _ = function(&actions, lowest)
}

/// Quotes `text` for `sh`.
func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
