import Foundation
import Testing

/// A demo app (an executable built next to `opsdash`) started in a fresh runtime directory, with
/// `opsdash attach --headless` reading what it publishes. Both are killed if they still run when
/// it is released (a failing test leaves nothing behind), and after 60 s whatever happens.
final class AttachedDemo {
    /// The viewer's stdout, line by line.
    let lines: LineReader
    /// The app's socket, from its "publishing … on PATH" log line.
    let socket: String
    private let app: Process
    private let viewer: Process
    /// Kept open to the end: an app writing to a closed pipe would die of SIGPIPE.
    private let appPipes: (out: Pipe, err: Pipe)
    private let viewerErrors: ReadAll
    private let watchdogs: [ProcessWatchdog]
    private let runtime: String

    init(_ executable: String) throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = URL(fileURLWithPath: opsdash).deletingLastPathComponent().appendingPathComponent(executable)
        let runtime = try PublishingApp.makeRuntime()
        self.runtime = runtime
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let (app, appOut, appErr) = try startProcess(binary.path, [], environment: environment)
        let appWatchdog = ProcessWatchdog(app, seconds: 60)
        // The publisher logs "publishing APP/QUEUE on PATH" once the socket is there.
        let published = LineReader(appErr.fileHandleForReading).firstLine { $0.contains("publishing ") }
        let (viewer, viewerOut, viewerErr) = try startProcess(
            opsdash, ["attach", "--headless"], environment: environment)
        (self.app, self.viewer, appPipes) = (app, viewer, (appOut, appErr))
        watchdogs = [appWatchdog, ProcessWatchdog(viewer, seconds: 60)]
        viewerErrors = ReadAll(viewerErr.fileHandleForReading)
        lines = LineReader(viewerOut.fileHandleForReading)
        socket = try #require(published?.components(separatedBy: " on ").last, "the app published")
    }

    deinit {
        for process in [app, viewer] where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for watchdog in watchdogs { watchdog.disarm() }
        try? FileManager.default.removeItem(atPath: runtime)
    }

    /// Sends the app SIGTERM and checks that it ended cleanly: exit 0 on its own (not SIGTERM's
    /// default action), its socket removed, and the viewer sent `bye` (nothing on its stderr).
    func expectCleanEndOnSIGTERM(sourceLocation: SourceLocation = #_sourceLocation) {
        kill(app.processIdentifier, SIGTERM)
        app.waitUntilExit()
        #expect(app.terminationReason == .exit, "not ended by SIGTERM's default action", sourceLocation: sourceLocation)
        #expect(app.terminationStatus == 0, sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: socket), "the socket is removed", sourceLocation: sourceLocation)
        viewer.waitUntilExit()
        let viewerStderr = String(decoding: viewerErrors.wait(), as: UTF8.self)
        #expect(
            viewerStderr.isEmpty, "the viewer got the bye, not a lost connection: \(viewerStderr)",
            sourceLocation: sourceLocation)
        _ = lines.rest()
    }
}
