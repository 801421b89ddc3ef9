import Foundation
import OpsKitTesting
import Testing

/// `opsdash attach ssh://…` end to end against a real OpenSSH server on 127.0.0.1 that the test
/// starts (`SSHServer`), running the built `opsdash relay` on the "remote" side, which attaches
/// to an app published there.
@Suite(.ownThread, .enabled(if: SSHServer.enabled, "\(SSHServer.missing ?? "")"))
struct SSHAttachTests {
    /// Whether `pid` has the publisher's shared-memory stream mapped.
    private static func mapsSharedStream(_ pid: Int32) -> Bool {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return maps.contains("memfd:opsdash-stream")
    }

    @Test func attachesOverSSHAndStreamsTheAppsEventsWithoutSharedMemory() throws {
        let server = try SSHServer()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "0"], runtime: runtime)
        defer { app.stop() }
        let environment = try server.environment(runtime: runtime)

        let streamed = try runOpsdash(
            ["attach", "--headless", server.url("AppExample/images")], signalAfterFirstLine: SIGINT,
            environment: environment)
        #expect(streamed.status == 130, "\(streamed.stderr)")
        #expect(streamed.stdout.hasPrefix(#"{"t":"#), "\(streamed.stdout.prefix(200))")
        #expect(streamed.stdout.contains(#""event":"summary""#))

        // The only published queue, without a name.
        let only = try runOpsdash(
            ["attach", "--headless", server.url()], signalAfterFirstLine: SIGINT, environment: environment)
        #expect(only.status == 130, "\(only.stderr)")

        // The relay is a local viewer of the app, which offers it the shared-memory stream; the
        // ssh viewer never maps what the far side names (a local attach does, so the check sees it).
        let local = try HeadlessViewer(["AppExample/images"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(local.isAttached)
        #expect(Self.mapsSharedStream(local.process.processIdentifier))
        local.process.interrupt()
        _ = local.finish()
        let remote = try HeadlessViewer([server.url("images")], environment: environment)
        #expect(remote.isAttached)
        #expect(!Self.mapsSharedStream(remote.process.processIdentifier))
        remote.process.interrupt()
        #expect(remote.finish().status == 130)
    }

    /// The dashboard over ssh steers the app only as far as the remote app allows: with
    /// `--allow-control` a pause and a cancel go through (audited with the ssh user's uid, the
    /// relay's); without, both are refused in the message line with what the app must set.
    @Test(
        .enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"),
        arguments: [true, false])
    func theDashboardOverSSHSteersOnlyWhatTheRemoteAppAllows(allowControl: Bool) throws {
        let server = try SSHServer()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--speed", "2"] + (allowControl ? ["--allow-control"] : []), runtime: runtime)
        defer { app.stop(SIGKILL) }
        let binary = try OpsdashBuild.debug.binary()
        let environment = try server.environment(runtime: runtime).sorted { $0.key < $1.key }
            .map { "\($0.key)=\(shellQuote($0.value))" }.joined(separator: " ")
        let tmux = try TmuxSession(
            command: "env \(environment) \(shellQuote(binary)) attach \(shellQuote(server.url("images")))")
        defer { quit(tmux) }
        let role = allowControl ? "control" : "read-only"
        let header = "AppExample/images[\(app.process.processIdentifier)]@127.0.0.1 connected (\(role))"
        let shown = try tmux.waitUntil { $0.contains(header) && $0.contains("#1 ") }
        #expect(shown.matched, "no connected header:\n\(shown.screen)")
        try tmux.sendKeys("p")
        if allowControl {
            let paused = try tmux.waitUntil { $0.contains("PAUSED") && $0.contains("uid \(geteuid())") }
            #expect(paused.matched, "the app's queue did not pause, audited:\n\(paused.screen)")
        } else {
            let refused = try tmux.waitUntil { $0.contains(RemoteSourceText.appReadOnly) }
            #expect(refused.matched, "p was not refused:\n\(refused.screen)")
            try tmux.sendKeys("Down")  // clears the message line
            #expect(try tmux.waitUntil { !$0.contains("refused:") }.matched)
        }
        // `f` filters the table to the ready rows (and selects the first): `c` cancels it.
        try tmux.sendKeys("f")
        try tmux.sendKeys("-l", "ready")
        try tmux.sendKeys("Enter")
        try tmux.sendKeys("c")
        let answered = try tmux.waitUntil {
            $0.contains(allowControl ? "operator cancelled #" : RemoteSourceText.appReadOnly)
        }
        #expect(answered.matched, "c was not \(allowControl ? "carried out" : "refused"):\n\(answered.screen)")
    }

    @Test func aFailedLoginOrAMissingQueueIsOneLineAndExit2() throws {
        let server = try SSHServer()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "0"], runtime: runtime)
        defer { app.stop() }

        let missing = try runOpsdash(
            ["attach", "--headless", server.url("nosuch")], environment: try server.environment(runtime: runtime))
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty, "nothing was attached, so no summary")
        #expect(
            missing.stderr.hasPrefix(
                "opsdash: cannot attach to \(server.url("nosuch")): no published queue named nosuch in \(runtime)/opsdash; published: AppExample/images (pid "
            ), "\(missing.stderr)")
        #expect(missing.stderr.hasSuffix(" (ssh exit 2)\n"), "\(missing.stderr)")

        let stranger = try runOpsdash(
            ["attach", "--headless", server.url("images")],
            environment: try server.environment(runtime: runtime, key: server.strangerKey))
        #expect(stranger.status == 2)
        #expect(stranger.stdout.isEmpty)
        #expect(
            stranger.stderr.hasPrefix("opsdash: cannot attach to \(server.url("images")): "), "\(stranger.stderr)")
        #expect(stranger.stderr.hasSuffix(": Permission denied (publickey). (ssh exit 255)\n"), "\(stranger.stderr)")
        #expect(stranger.stderr.filter { $0 == "\n" }.count == 1)
    }
}

/// Malformed `ssh://` targets, refused before anything runs.
@Suite(.ownThread) struct SSHTargetSyntaxTests {
    @Test func aMalformedSSHAddressIsOneLineAndExit2() throws {
        for bad in [
            "ssh://", "ssh://host:0", "ssh://host:65536", "ssh://-oProxyCommand=x", "ssh://user@-host",
            "ssh://host/-v", "ssh://host/a/b/c", "ssh://host/x'y", "ssh://[::1", "ssh://h@st@x",
        ] {
            let result = try runOpsdash(["attach", "--headless", bad])
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr == "opsdash: bad address \(bad): expected ssh://[USER@]HOST[:PORT][/NAME]\n")
        }
        let token = try runOpsdash(["attach", "--headless", "ssh://host/x", "--token-file", "/nonexistent"])
        #expect(token.status == 2)
        #expect(token.stderr == "opsdash: --token-file is only for tcp:// targets\n")
        // And a tcp:// target needs one (refused before connecting: nothing listens on port 9).
        let noToken = try runOpsdash(["attach", "--headless", "tcp://127.0.0.1:9"])
        #expect(noToken.status == 2)
        #expect(noToken.stderr.hasPrefix("opsdash: tcp://127.0.0.1:9 needs --token-file"), "\(noToken.stderr)")
    }
}

/// What the dashboard says when the app did not allow control (`RemoteSource.appReadOnlyRefusal`).
private enum RemoteSourceText {
    static let appReadOnly = "refused: read-only: the app did not allow control"
}
