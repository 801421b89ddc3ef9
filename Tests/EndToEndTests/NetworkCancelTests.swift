import Foundation
import Testing

/// README "Watching real transfers": cancelling a transfer from the dashboard (`c`, with
/// `--allow-control`) cancels its URLSession task: the server sends no more of that file, while
/// the app's other transfers go on (and would have given the download time to finish).
@Suite struct NetworkCancelTests {
    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        .disabled("fails in the full parallel run (passes alone): make its timing robust, then enable"))
    func cancellingADownloadFromTheDashboardStopsItsBytes() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = try #require(demoBinaryPath("NetworkExample"))
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        // The download takes 3 s at this pace; upload-2 (twice the size) keeps the app running 6 s.
        let size = 600_000
        let (app, appOut, appErr) = try startProcess(
            binary,
            [
                "--downloads", "1", "--uploads", "2", "--size", "\(size)", "--rate", "200000", "--allow-control",
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
        let appLines = String(decoding: appOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        app.waitUntilExit()
        _ = (appErrors, appErrorsRest.wait())

        let counts = NetworkExampleTests.serverCounts(in: appLines)
        #expect(appLines.contains("file-1.bin: cancelled"), "\(appLines)")
        #expect((counts["file-1.bin"] ?? Int64(size)) < Int64(size), "the server stopped sending:\n\(appLines)")
        #expect(counts["upload-2.bin"] == Int64(2 * size), "the other transfers went on:\n\(appLines)")
    }
}
