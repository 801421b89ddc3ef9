import Foundation
import OpsKitTesting
import Testing

@Suite(.ownThread) struct TerminalEndToEndTests {
    /// Needs the app wiring: `opsdash` with stdout not a TTY must refuse with exit 2.
    @Test func pipedStdoutRefusesWithExitTwo() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        _ = binary
        let result = try runOpsdash([])
        #expect(result.status == 2)
        #expect(result.stderr == "opsdash: stdout is not an interactive terminal; use --headless\n")
        #expect(result.stdout.isEmpty)
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func quitRestoresTheTerminal() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: shellQuote(binary))
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { screen in
            try tmux.isAlternateScreen() && !screen.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        #expect(shown.matched, "dashboard never appeared:\n\(shown.screen)")
        try tmux.resize(width: 80, height: 24)
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(ended.matched, "opsdash did not quit:\n\(ended.screen)")
        #expect([0, 1].contains(tmux.exitStatus(in: ended.screen)))
        #expect(ended.screen.contains("[tty sane]"))
        #expect(try !tmux.isAlternateScreen())
    }
}
