import Foundation
import OpsKitTesting
import Testing

/// The history view through the real binary in tmux: `h` on a replay shows the recording's
/// per-second history, and ← moves its cursor (the playhead) back a second at a time, pausing,
/// with the table and header showing that moment.
@Suite(.ownThread) struct HistoryEndToEndTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theHistoryCursorSeeksTheReplay() throws {
        let path = RecordingEndToEndTests.temporaryPath("history")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorded = try runOpsdash(["--headless", "--scenario", "flaky", "--speed", "50", "--record", path])
        #expect(recorded.status == 1, "flaky fails some for good: \(recorded.stderr)")
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(command: "\(shellQuote(binary)) replay \(shellQuote(path)) --speed 1", width: 100)
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("REPLAY flaky") }
        #expect(shown.matched, "no REPLAY header:\n\(shown.screen)")
        try tmux.sendKeys("End")
        let end = try tmux.waitUntil { $0.contains(" end ") }
        #expect(end.matched, "End did not reach the end:\n\(end.screen)")
        let total = try #require(RecordingEndToEndTests.replayClock(end.screen)?.total)
        try tmux.sendKeys("h")
        let history = try tmux.waitUntil { $0.contains("history last") && $0.contains("at \(total)") }
        #expect(history.matched, "no history view with the cursor at \(total):\n\(history.screen)")
        #expect(history.screen.contains("failed") && history.screen.contains("not started"))
        for _ in 0..<10 { try tmux.sendKeys("Left") }
        let back = try tmux.waitUntil {
            guard let clock = RecordingEndToEndTests.replayClock($0) else { return false }
            // Waits for all ten keys: the first one alone already moves it.
            return Self.seconds(clock.position) == Self.seconds(total) - 10 && $0.contains(" paused ")
                && $0.contains("at \(clock.position) ")
        }
        #expect(back.matched, "← did not move the cursor and the playhead:\n\(back.screen)")
        let position = try #require(RecordingEndToEndTests.replayClock(back.screen)?.position)
        #expect(Self.seconds(position) == Self.seconds(total) - 10, "10 × ← is 10 s back: \(position) of \(total)")
        #expect(back.screen.contains("ID "), "the table shows under the history:\n\(back.screen)")
        try tmux.sendKeys("q")
        let quit = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
        #expect(quit.matched && tmux.exitStatus(in: quit.screen) == 0, "\(quit.screen)")
    }

    /// `--history-window 90s`: the dashboard's `h` view covers 90 seconds; a bad window is exit 2
    /// with one line.
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theHistoryWindowFlagSetsTheWindowAndRefusesABadOne() throws {
        let refused = try runOpsdash(["--headless", "--history-window", "1s"])
        #expect(refused.status == 2)
        #expect(
            refused.stderr.split(separator: "\n").count == 1
                && refused.stderr.contains("--history-window must be a duration from 2s to 24h"), "\(refused.stderr)")
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(
            command: "\(shellQuote(binary)) --scenario flaky --history-window 90s", width: 100, height: 32)
        defer { tmux.kill() }
        _ = try tmux.waitUntil { $0.contains("flaky") }
        try tmux.sendKeys("h")
        let history = try tmux.waitUntil { $0.contains("history last") && $0.contains(" of 1:30") }
        #expect(history.matched, "the h view's window is 1:30:\n\(history.screen)")
        try tmux.sendKeys("q")
        _ = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
    }

    /// "1:05" as 65.
    static func seconds(_ clock: String) -> Int {
        clock.split(separator: ":").reduce(0) { $0 * 60 + (Int($1) ?? 0) }
    }
}
