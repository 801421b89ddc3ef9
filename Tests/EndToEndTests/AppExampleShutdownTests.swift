import Foundation
import OpsKitTesting
import Testing

/// `Demos/AppExample` shuts down gracefully on each stop signal, a closed terminal's SIGHUP
/// included: it exits 0, its attached viewer gets the bye (not "lost connection"), and its socket
/// and sidecar are gone.
@Suite(.ownThread) struct AppExampleShutdownTests {
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

    /// A stop signal at any moment of start-up ends the app: gracefully once it watches for
    /// them (its first step), by the default action before that; never lost (the app running on
    /// forever), never leaving a socket or sidecar behind.
    @Test func aStopSignalDuringStartUpIsNeverLostAndLeavesNothingBehind() throws {
        let opsdash = try #require(opsdashBinaryPath())
        let binary = URL(fileURLWithPath: opsdash).deletingLastPathComponent().appendingPathComponent("AppExample")
        for delay in [0, 1, 2, 5, 10, 20, 40, 80] {
            let runtime = try PublishingApp.makeRuntime()
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            // The pipes stay open to the end of the round: AppExample's few lines fit in them.
            let (process, out, err) = try startProcess(
                binary.path, ["--speed", "4"], environment: ["XDG_RUNTIME_DIR": runtime])
            defer { _ = (out, err) }
            // The delay only moves the moment across start-up; the outcome must not depend on it.
            Thread.sleep(forTimeInterval: Double(delay) / 1000)
            kill(process.processIdentifier, SIGTERM)
            let ended = waitForEnd(of: process.processIdentifier, timeout: .seconds(15))
            if !ended { kill(process.processIdentifier, SIGKILL) }
            #expect(ended, "AppExample still running 15 s after SIGTERM \(delay) ms into start-up")
            process.waitUntilExit()
            let graceful = process.terminationReason == .exit && process.terminationStatus == 0
            let early = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
            #expect(graceful || early, "after \(delay) ms: \(process.terminationReason) \(process.terminationStatus)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: runtime + "/opsdash")) ?? []
            #expect(left.filter { $0.hasPrefix("AppExample.") }.isEmpty, "after \(delay) ms: \(left)")
        }
    }
}
