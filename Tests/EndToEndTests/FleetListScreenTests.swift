import Foundation
import OpsKitTesting
import Testing

/// `opsdash attach` with several published queues, in tmux: the fleet list, Enter into an
/// app's dashboard and Esc back, `?` help, the `/` filter, a departed app greyed out, `q`
/// back from a dashboard and `Q` quitting from one; closing the terminal ends the list.
@Suite(.ownThread) struct FleetListScreenTests {
    @Test func theListOpensAnAppComesBackFiltersAndGreysOutAnAppThatWentAway() throws {
        let binary = try OpsdashBuild.debug.binary()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let readOnly = try PublishingApp(["--speed", "2"], runtime: runtime)
        defer { readOnly.stop(SIGKILL) }
        let steerable = try PublishingApp(["--speed", "2", "--allow-control"], runtime: runtime)
        defer { steerable.stop(SIGKILL) }
        let first = readOnly.process.processIdentifier
        let second = steerable.process.processIdentifier
        let tmux = try TmuxSession(
            command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach --history-window 90s",
            width: 110, height: 20)
        defer { tmux.kill() }

        func row(_ screen: String, _ pid: Int32) -> String? {
            screen.split(separator: "\n").first { $0.hasPrefix("AppExample/images") && $0.contains(" \(pid) ") }
                .map(String.init)
        }
        let listed = try tmux.waitUntil {
            $0.contains("fleet │ 2 published queues") && row($0, first)?.contains("read-only") == true
                && row($0, second)?.contains("control") == true && row($0, first)?.hasSuffix("now") == true
        }
        #expect(listed.matched, "\(listed.screen)")
        #expect(listed.screen.contains("APP/QUEUE"), "\(listed.screen)")

        // `?` shows the list's keys and columns over it (scrolling in 20 rows); Esc closes it.
        try tmux.sendKeys("?")
        let help = try tmux.waitUntil { $0.contains("Help") && $0.contains("open the selected app's dashboard") }
        #expect(help.matched, "\(help.screen)")
        try tmux.sendKeys("End")
        let scrolled = try tmux.waitUntil { $0.contains("viewers attached to the app") }
        #expect(scrolled.matched, "End scrolls the help to its columns: \(scrolled.screen)")
        try tmux.sendKeys("Escape")
        let closed = try tmux.waitUntil { !$0.contains("viewers attached to the app") && $0.contains("APP/QUEUE") }
        #expect(closed.matched, "\(closed.screen)")

        // Enter on the selected row (the first, by pid order) opens its dashboard.
        let selectedFirst = first < second
        try tmux.sendKeys("Enter")
        let opened = selectedFirst ? first : second
        let dashboard = try tmux.waitUntil { $0.contains("AppExample/images[\(opened)] connected") }
        #expect(dashboard.matched, "\(dashboard.screen)")
        // The dashboard keeps the history window given to `attach` (`h`; Esc closes the view).
        try tmux.sendKeys("h")
        let history = try tmux.waitUntil { $0.contains("history last") && $0.contains(" of 1:30") }
        #expect(history.matched, "--history-window reaches a dashboard opened from the list: \(history.screen)")
        try tmux.sendKeys("Escape")
        _ = try tmux.waitUntil { !$0.contains("history last") }
        try tmux.sendKeys("Escape")
        let back = try tmux.waitUntil { $0.contains("fleet │ 2 published queues") && row($0, first) != nil }
        #expect(back.matched, "Esc came back to the list: \(back.screen)")

        // `q` in the app's dashboard comes back too (its footer says so).
        try tmux.sendKeys("Enter")
        let again = try tmux.waitUntil {
            $0.contains("AppExample/images[\(opened)] connected") && $0.contains("q back")
        }
        #expect(again.matched, "\(again.screen)")
        try tmux.sendKeys("q")
        let backByQ = try tmux.waitUntil { $0.contains("fleet │ 2 published queues") && row($0, first) != nil }
        #expect(backByQ.matched, "q came back to the list: \(backByQ.screen)")

        try tmux.sendKeys("/", "\(second)", "Enter")
        let filtered = try tmux.waitUntil {
            $0.contains("filter: \(second) (1 shown)") && row($0, second) != nil && row($0, first) == nil
        }
        #expect(filtered.matched, "\(filtered.screen)")
        try tmux.sendKeys("Escape")
        _ = try tmux.waitUntil { row($0, first) != nil && row($0, second) != nil }

        readOnly.stop()
        let departed = try tmux.waitUntil {
            $0.contains("1 departed (listed 60 s)") && row($0, first)?.hasSuffix("gone") == true
        }
        #expect(departed.matched, "\(departed.screen)")
        let greyed = try tmux.captureWithEscapes().split(separator: "\n").first {
            $0.contains(" \(first) ") && $0.contains("gone")
        }
        #expect(
            greyed?.contains("\u{1B}[2m") == true || greyed?.contains(";2m") == true || greyed?.contains(";2;") == true,
            "the departed row is dim: \(String(describing: greyed))")

        // `Q` in an app's dashboard quits opsdash (exit 0); `q` on the list does too (FleetListTests).
        try tmux.sendKeys("/", "\(second)", "Enter")
        _ = try tmux.waitUntil { $0.contains("filter: \(second) (1 shown)") }
        try tmux.sendKeys("Enter")
        let live = try tmux.waitUntil { $0.contains("AppExample/images[\(second)] connected") }
        #expect(live.matched, "\(live.screen)")
        try tmux.sendKeys("Q")
        let ended = try tmux.waitUntil(timeout: .seconds(5)) { tmux.exitStatus(in: $0) != nil }
        #expect(tmux.exitStatus(in: ended.screen) == 0, "\(ended.screen)")
    }

    @Test func closingTheTerminalEndsTheList() throws {
        let binary = try OpsdashBuild.debug.binary()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let one = try PublishingApp(["--speed", "2"], runtime: runtime)
        defer { one.stop(SIGKILL) }
        let two = try PublishingApp(["--speed", "2"], runtime: runtime)
        defer { two.stop(SIGKILL) }
        let tmux = try TmuxSession(
            command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach", width: 110, height: 20)
        defer { tmux.kill() }
        let listed = try tmux.waitUntil { $0.contains("fleet │ 2 published queues") }
        #expect(listed.matched, "\(listed.screen)")
        let pid = try #require(try tmux.panePID())
        try tmux.killSession()
        #expect(waitForEnd(of: pid, timeout: .seconds(15)), "the fleet list outlived its terminal")
    }
}
