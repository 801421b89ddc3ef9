import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpsKitTesting
import Testing

/// The demo app's `/metrics` carries the publisher's `opsdash_remote_*` series, following the
/// viewers attached with `opsdash attach`.
@Suite(.ownThread) struct RemoteMetricsEndToEndTests {
    private static func scrape(_ port: Int) async -> String {
        guard let url = URL(string: "http://127.0.0.1:\(port)/metrics"),
            let (data, _) = try? await URLSession.shared.data(from: url)
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Scrapes until `condition` holds (at most 15 s); returns the last exposition.
    private static func scrape(_ port: Int, until condition: (String) -> Bool) async -> (matched: Bool, text: String) {
        let deadline = ContinuousClock.now + .seconds(15)
        var text = ""
        while ContinuousClock.now < deadline {
            text = await scrape(port)
            if condition(text) { return (true, text) }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return (false, text)
    }

    @Test func attachedViewersShowInTheAppsMetrics() async throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let (fd, port) = try ListeningPort.loopbackSocket(listening: false)
        close(fd)
        let app = try PublishingApp(["--speed", "1", "--metrics-port", "\(port)"], runtime: runtime)
        let observers = #"opsdash_remote_clients{queue="AppExample/images",role="observer"}"#
        let before = await Self.scrape(port) { $0.contains(observers + " 0") }
        #expect(before.matched, "no remote series at zero:\n\(before.text)")
        for series in [
            #"opsdash_remote_clients{queue="AppExample/images",role="controller"} 0"#,
            #"opsdash_remote_resyncs_total{queue="AppExample/images",reason="lagged"} 0"#,
            #"opsdash_remote_resyncs_total{queue="AppExample/images",reason="burst"} 0"#,
            #"opsdash_remote_commands_total{queue="AppExample/images",cmd="set_limit",result="forbidden"} 0"#,
        ] {
            #expect(before.text.contains(series), "\(series)")
        }
        #expect(before.text.contains("# HELP opsdash_remote_clients "))

        let viewer = Process()
        viewer.executableURL = URL(fileURLWithPath: try #require(opsdashBinaryPath()))
        viewer.arguments = ["attach", "--headless"]
        viewer.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        viewer.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        viewer.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try viewer.run()
        defer { if viewer.isRunning { viewer.terminate() } }
        let attached = await Self.scrape(port) { $0.contains(observers + " 1") }
        #expect(attached.matched, "the viewer is not counted:\n\(attached.text)")
        viewer.terminate()
        viewer.waitUntilExit()
        let gone = await Self.scrape(port) { $0.contains(observers + " 0") }
        #expect(gone.matched, "the viewer that left is still counted:\n\(gone.text)")
        app.stop()
    }
}
