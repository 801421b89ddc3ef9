import Foundation
import OpsKitTesting
import Testing

/// Reads the counts line of the dashboard header ("waiting 1  ready 5  running 4  succeeded 11 …").
func headerCount(_ name: String, in screen: String) -> Int? {
    guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("waiting ") }) else { return nil }
    let words = line.split(separator: " ")
    guard let index = words.firstIndex(of: Substring(name)), index + 1 < words.count else { return nil }
    return Int(words[index + 1])
}

/// Operations that have started so far: running plus finished.
func startedCount(_ screen: String) -> Int? {
    guard let executing = headerCount("running", in: screen), let succeeded = headerCount("succeeded", in: screen),
        let failed = headerCount("failed", in: screen)
    else { return nil }
    return executing + succeeded + failed
}

@Suite(.ownThread) struct DashboardInteractionTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func operatorPausesRaisesConcurrencyCancelsResizesAndQuits() throws {
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) --scenario downloads --speed 4")
        defer { tmux.kill() }

        // Header and rows appear.
        let shown = try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("#1 ") && $0.contains("running 4/4") }
        #expect(shown.matched, "dashboard never showed running work:\n\(shown.screen)")

        // p: PAUSED, and no operation starts while paused (running ones may finish).
        try tmux.sendKeys("p")
        let paused = try tmux.waitUntil { $0.contains("PAUSED") }
        #expect(paused.matched, "no PAUSED:\n\(paused.screen)")
        let startedAtPause = try #require(startedCount(paused.screen))
        let drained = try tmux.waitUntil(timeout: .seconds(30)) { headerCount("running", in: $0) == 0 }
        #expect(drained.matched, "running work never finished while paused:\n\(drained.screen)")
        #expect(startedCount(drained.screen) == startedAtPause, "an operation started while paused")

        // +: the limit rises at once; resuming runs more operations at the same time.
        try tmux.sendKeys("+")
        let raised = try tmux.waitUntil { $0.contains("running 0/5") }
        #expect(raised.matched, "limit did not rise:\n\(raised.screen)")
        try tmux.sendKeys("p")
        let five = try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("running 5/5") }
        #expect(five.matched, "five operations never ran together:\n\(five.screen)")

        // Select the last operation (not started yet) and cancel it.
        try tmux.sendKeys("End")
        try tmux.sendKeys("c")
        let cancelled = try tmux.waitUntil {
            $0.split(separator: "\n").contains { $0.hasPrefix("#40") && $0.contains("cancelled") }
        }
        #expect(cancelled.matched, "#40 not cancelled:\n\(cancelled.screen)")
        #expect(headerCount("cancelled", in: cancelled.screen) == 1)

        // Resizes: a smaller dashboard, then the too-small message, then back.
        try tmux.resize(width: 80, height: 24)
        let small = try tmux.waitUntil { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.first?.hasPrefix("opsdash") == true && screen.contains("ID    NAME")
                && lines.allSatisfy { $0.count <= 80 }
        }
        #expect(small.matched, "80×24 layout wrong:\n\(small.screen)")
        try tmux.resize(width: 30, height: 8)
        let tiny = try tmux.waitUntil { $0.contains("enlarge") }
        #expect(tiny.matched, "30×8 did not ask to enlarge:\n\(tiny.screen)")
        try tmux.resize(width: 120, height: 40)
        let back = try tmux.waitUntil { $0.contains("RUNNING") && $0.contains("ID    NAME") && $0.contains("─ Events") }
        #expect(back.matched, "dashboard did not come back:\n\(back.screen)")

        // q: the shell's normal screen is back and the terminal is sane.
        try tmux.sendKeys("q")
        let ended = try tmux.waitUntil { $0.contains("[tty ") }
        #expect(ended.matched)
        #expect(tmux.exitStatus(in: ended.screen) == 1, "quit with unfinished work exits 1")
        #expect(ended.screen.contains("[tty sane]"))
        #expect(ended.screen.contains("opsdash: 40 operations:"))
        #expect(try !tmux.isAlternateScreen())
    }
}
