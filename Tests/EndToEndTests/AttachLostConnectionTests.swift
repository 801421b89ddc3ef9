import Foundation
import OpsKitTesting
import Testing

/// `opsdash attach --headless` whose app dies without a bye: exit 1, one line on stderr, and a
/// summary whose `interrupted` is false (it means ended by a signal, docs/OPERATING.md "Headless mode").
@Suite(.ownThread) struct AttachLostConnectionTests {
    @Test func aLostConnectionExitsOneWithALineOnStderrAndIsNotAnInterruption() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--speed", "4"], runtime: runtime)
        let socket = try #require(app.socketPath)
        let viewer = try HeadlessViewer(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(viewer.isAttached)
        app.stop(SIGKILL)
        let seen = viewer.finish()
        #expect(seen.status == 1, "\(seen.stderr)")
        #expect(seen.stderr == "opsdash: lost connection to \(socket): app went away\n")
        var checker = EventStreamChecker(limit: 3)
        checker.check(seen.stdout)
        #expect(checker.summary?["interrupted"] as? Bool == false, "\(seen.stdout.suffix(300))")
    }

    /// Attached by socket path, the socket file removed and the app gone: the stderr line says
    /// the socket is gone, not only that the connection was lost.
    @Test func aRemovedSocketIsSaidOnTheLostConnectionLine() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--speed", "4"], runtime: runtime)
        let socket = try #require(app.socketPath)
        let viewer = try HeadlessViewer([socket], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(viewer.isAttached)
        #expect(unlink(socket) == 0)
        app.stop(SIGKILL)
        let seen = viewer.finish()
        #expect(seen.status == 1, "\(seen.stderr)")
        #expect(
            seen.stderr
                == "opsdash: lost connection to \(socket): app went away; socket \(socket) gone: the app stopped publishing\n"
        )
    }
}
