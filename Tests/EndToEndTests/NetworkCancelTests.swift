import Foundation
import OpsKitTesting
import Testing

/// README "Watching real transfers": cancelling a transfer from the dashboard (`c`, with
/// `--allow-control`) cancels its URLSession task: the server sends no more of that file, while
/// the app's other transfer goes on. The cancelled download would take 10 s, so that a loaded
/// machine's delay between the row showing and the key arriving does not let it finish first.
@Suite(.ownThread) struct NetworkCancelTests {
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func cancellingADownloadFromTheDashboardStopsItsBytes() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = try #require(demoBinaryPath("NetworkExample"))
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        // file-1 takes 10 s at this pace; file-2 (twice the size) keeps the app running 20 s.
        let size = 2_000_000
        let (app, appOut, appErr) = try startProcess(
            binary,
            [
                "--downloads", "2", "--uploads", "0", "--size", "\(size)", "--rate", "200000", "--allow-control",
                "--wait-for-viewer", "--exit-when-done",
            ],
            environment: ["XDG_RUNTIME_DIR": runtime])
        let appWatchdog = ProcessWatchdog(app, seconds: 60)
        defer { appWatchdog.disarm() }
        let appErrors = LineReader(appErr.fileHandleForReading)
        _ = try #require(appErrors.firstLine { $0.contains("publishing ") }, "the app published")
        let appErrorsRest = ReadAll(appErr.fileHandleForReading)

        let tmux = try TmuxSession(command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(opsdash)) attach")
        defer { tmux.kill() }
        let running = try tmux.waitUntil(timeout: .seconds(20)) { screen in
            screen.split(separator: "\n").contains { $0.contains("file-1.bin") && $0.contains("running") }
        }
        #expect(running.matched, "the download never showed running:\n\(running.screen)")
        try tmux.sendKeys("c")  // the first row, selected: the download
        let cancelled = try tmux.waitUntil { screen in
            screen.split(separator: "\n").contains { $0.contains("file-1.bin") && $0.contains("cancelled") }
        }
        #expect(cancelled.matched, "the dashboard never showed file-1 cancelled:\n\(cancelled.screen)")
        let appLines = String(decoding: appOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        app.waitUntilExit()
        _ = (appErrors, appErrorsRest.wait())

        let counts = NetworkExampleTests.serverCounts(in: appLines)
        #expect(appLines.contains("file-1.bin: cancelled"), "\(appLines)")
        #expect((counts["file-1.bin"] ?? Int64(size)) < Int64(size), "the server stopped sending:\n\(appLines)")
        #expect(counts["file-2.bin"] == Int64(2 * size), "the other transfer went on:\n\(appLines)")
    }
}
