import Foundation
import OpsKitTesting
import Testing

/// Ctrl-L in a real terminal: text another program wrote over the dashboard disappears.
@Suite(.ownThread) struct RepaintEndToEndTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func ctrlLRepaintsOverStrayOutput() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) --scenario downloads")
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("#1 ") }
        #expect(shown.matched, "dashboard never showed:\n\(shown.screen)")
        // Paused, nothing below the header changes on its own.
        try tmux.sendKeys("p")
        let paused = try tmux.waitUntil(timeout: .seconds(30)) {
            $0.contains("PAUSED") && headerCount("running", in: $0) == 0
        }
        #expect(paused.matched, "never paused and drained:\n\(paused.screen)")

        // Another program writes into the middle of the table.
        let tty = try tmux.paneTTY()
        let stray = try #require(FileHandle(forWritingAtPath: tty), "cannot open \(tty)")
        stray.write(Data("\u{1B}[20;10HSTRAY-OUTPUT-XYZ".utf8))
        try stray.close()
        let dirty = try tmux.waitUntil { $0.contains("STRAY-OUTPUT-XYZ") }
        #expect(dirty.matched, "the stray text never showed:\n\(dirty.screen)")

        try tmux.sendKeys("C-l")
        let clean = try tmux.waitUntil { !$0.contains("STRAY-OUTPUT-XYZ") && $0.contains("PAUSED") }
        #expect(clean.matched, "Ctrl-L left the stray text:\n\(clean.screen)")
        #expect(clean.screen.contains("ID    NAME"))
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(ended.matched)
    }
}
