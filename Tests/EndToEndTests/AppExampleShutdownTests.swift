import Foundation
import Testing

/// `Demos/AppExample` shuts down gracefully on each stop signal, a closed terminal's SIGHUP
/// included: it exits 0, its attached viewer gets the bye (not "lost connection"), and its socket
/// and sidecar are gone.
@Suite struct AppExampleShutdownTests {
    @Test(arguments: [SIGHUP, SIGTERM, SIGINT])
    func aStopSignalSaysByeRemovesTheFilesAndExitsZero(signal: Int32) throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--speed", "4"], runtime: runtime)
        let socket = try #require(app.socketPath)
        let sidecar = (socket as NSString).deletingPathExtension + ".json"
        let viewer = try HeadlessViewer(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(viewer.isAttached)
        app.stop(signal)
        if app.process.isRunning { viewer.process.terminate() }  // a failure below; no hang
        let seen = viewer.finish()
        #expect(!app.process.isRunning, "AppExample ended within 10 s of the signal")
        #expect(app.process.terminationReason == .exit, "not ended by signal \(signal)'s default action")
        #expect(app.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed")
        #expect(!FileManager.default.fileExists(atPath: sidecar), "the sidecar is removed")
        #expect(seen.stderr.isEmpty, "the viewer got the bye, not a lost connection: \(seen.stderr)")
        #expect(seen.stdout.split(separator: "\n").last?.contains(#""event":"summary""#) == true)
    }
}
