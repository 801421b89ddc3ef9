import Foundation
import OpsKitTesting
import Testing

/// How a stop reaches the dashboard in a test: a key tmux turns into a signal for the
/// foreground process group, or `kill` to the process.
enum StopRequest: CustomStringConvertible, Sendable {
    case key(String, signal: Int32)
    case kill(Int32)

    var signal: Int32 {
        switch self {
        case .key(_, let signal), .kill(let signal): signal
        }
    }

    var description: String {
        switch self {
        case .key(let key, _): "key \(key)"
        case .kill(let signal): "kill -\(signal)"
        }
    }
}

/// The dashboard in tmux, run from a pid file so the test knows its pid.
private struct DashboardUnderTest {
    let tmux: TmuxSession
    let pid: Int32
    /// The screen when the dashboard first appeared.
    let firstScreen: String

    init(
        _ build: OpsdashBuild, arguments: String = "", temporaryDirectory: String? = nil,
        runtimeBacktraceSetting: Bool = true
    ) throws {
        let binary = try build.binary()
        let pidFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsdash-e2e-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        // `exec` inside a subshell keeps sh as the pane process and opsdash its child.
        let tmux = try TmuxSession(
            command:
                "sh -c \(shellQuote("ulimit -c 0; echo $$ > \(shellQuote(pidFile)); exec \(temporaryDirectory.map { "env TMPDIR=\(shellQuote($0)) " } ?? "")\(shellQuote(binary)) \(arguments)"))",
            runtimeBacktraceSetting: runtimeBacktraceSetting)
        let shown = try tmux.waitUntil { screen in try tmux.isAlternateScreen() && screen.contains("RUNNING") }
        guard shown.matched else { throw TmuxError(description: "dashboard never appeared:\n\(shown.screen)") }
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TmuxError(description: "no pid in \(pidFile)")
        }
        self.tmux = tmux
        self.pid = pid
        firstScreen = shown.screen
    }
}

/// Whether process `pid` has ended (gone, or a zombie waiting for its parent).
func processEnded(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    guard let close = stat.lastIndex(of: ")") else { return false }
    return stat[close...].dropFirst(2).first == "Z"
}

/// Polls until `pid` ended or `timeout` passed; whether it ended.
func waitForEnd(of pid: Int32, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !processEnded(pid) {
        if ContinuousClock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return true
}

/// Every stop signal, against the debug and the release binary.
@Suite(.ownThread) struct SignalEndToEndTests {
    static let requests: [StopRequest] = [
        .key("C-c", signal: SIGINT), .key("C-\\", signal: SIGQUIT), .kill(SIGTERM), .kill(SIGHUP), .kill(SIGQUIT),
    ]

    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        arguments: OpsdashBuild.allCases, requests)
    func stopSignalEndsTheDashboardAndRestoresTheTerminal(_ build: OpsdashBuild, _ request: StopRequest) throws {
        // SIGQUIT runs with the Swift runtime's default backtrace settings, as a user's shell has them.
        let dashboard = try DashboardUnderTest(build, runtimeBacktraceSetting: request.signal != SIGQUIT)
        let tmux = dashboard.tmux
        defer { tmux.kill() }
        switch request {
        case .key(let key, _): try tmux.sendKeys(key)
        case .kill(let signal): #expect(Foundation.kill(dashboard.pid, signal) == 0)
        }
        // Bounds, not timings: a loaded 2-core CI machine can take seconds to schedule the exit.
        #expect(waitForEnd(of: dashboard.pid, timeout: .seconds(15)), "\(build) still running after \(request)")
        let ended = try tmux.waitUntil(timeout: .seconds(15)) { $0.contains("[tty ") }
        #expect(tmux.exitStatus(in: ended.screen) == 128 + request.signal, "\(ended.screen)")
        #expect(ended.screen.contains("[tty sane]"), "\(ended.screen)")
        #expect(ended.screen.contains("opsdash: "), "the summary line after the screen closed")
        #expect(try !tmux.isAlternateScreen())
    }

    /// The thread that turns signals into an exit is named where `top -H`, `ps -L` and /proc
    /// show it (Foundation's `Thread.name` alone does not reach the system on Linux).
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theSignalThreadIsNamedForTheSystem() throws {
        let dashboard = try DashboardUnderTest(.debug)
        defer { dashboard.tmux.kill() }
        let names = { systemThreadNames(ofProcess: dashboard.pid) }
        #expect(eventually(timeout: .seconds(15)) { names().contains("opsdash.signals") }, "\(names())")
    }

    /// A scenario of 300,000 operations takes seconds to add: the dashboard is drawn before
    /// they are all added, and `q` or Ctrl-C ends it meanwhile.
    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        arguments: zip(OpsdashBuild.allCases, ["q", "C-c"]))
    func theDashboardAnswersWhileALargeScenarioIsStillBeingAdded(_ build: OpsdashBuild, _ key: String) throws {
        let total = 300_000
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsdash-e2e-large-\(UUID().uuidString).json").path
        let scenario = """
            {"name": "large", "description": "many", "concurrency": 2, "seed": 1, "operations": [
              {"id": "step-{i}", "kind": "process", "repeat": \(total), "duration": 1000}]}
            """
        try scenario.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let dashboard = try DashboardUnderTest(build, arguments: "--scenario \(shellQuote(file))")
        let tmux = dashboard.tmux
        defer { tmux.kill() }
        // The first picture: the counts line ("waiting 0 … total N") before all are added.
        let first = dashboard.firstScreen
        let shown = first.firstMatch(of: /\btotal ([0-9]+)/).flatMap { Int($0.1) }
        #expect(shown.map { $0 < total } == true, "\(first)")
        try tmux.sendKeys(key)
        #expect(waitForEnd(of: dashboard.pid, timeout: .seconds(15)), "\(build) still running after \(key)")
        let ended = try tmux.waitUntil(timeout: .seconds(15)) { $0.contains("[tty ") }
        #expect(ended.screen.contains("[tty sane]"), "\(ended.screen)")
        // Operations not added yet count as unfinished: the summary is the scenario's, and
        // `q` exits 1 (unfinished work), not 0.
        let summary = "opsdash: \(total) operations: 0 succeeded, 0 failed, 0 cancelled, \(total) unfinished"
        #expect(ended.screen.contains(summary), "\(ended.screen)")
        #expect(tmux.exitStatus(in: ended.screen) == (key == "q" ? 1 : 128 + SIGINT), "\(ended.screen)")
    }

    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        arguments: OpsdashBuild.allCases)
    func closingTheTerminalEndsTheDashboard(_ build: OpsdashBuild) throws {
        let dashboard = try DashboardUnderTest(build, arguments: "--fps 1")
        defer { dashboard.tmux.kill() }
        try dashboard.tmux.killSession()
        #expect(waitForEnd(of: dashboard.pid, timeout: .seconds(15)), "\(build) outlived its terminal")
    }

    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        arguments: OpsdashBuild.allCases)
    func aCrashRestoresTheTerminalAndLeavesNoLogBehind(_ build: OpsdashBuild) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-e2e-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The Swift runtime's default backtrace settings, as a user's shell has them: its
        // backtracer must not get the crash (it would wait for a key on the hidden log).
        let dashboard = try DashboardUnderTest(build, temporaryDirectory: directory, runtimeBacktraceSetting: false)
        let tmux = dashboard.tmux
        defer { tmux.kill() }
        #expect(Foundation.kill(dashboard.pid, SIGSEGV) == 0)
        let ended = try tmux.waitUntil(timeout: .seconds(15)) { $0.contains("[tty ") }
        #expect(tmux.exitStatus(in: ended.screen) == 128 + SIGSEGV, "\(ended.screen)")
        #expect(ended.screen.contains("[tty sane]"), "\(ended.screen)")
        #expect(try !tmux.isAlternateScreen())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
}
