import Foundation
import OpsKitTesting
import Testing

/// Hosts of the hosts file in `opsdash attach --list --headless`, against a real OpenSSH server
/// on 127.0.0.1 (`SSHServer`): the app published "there" is listed with its host's label and
/// the `ssh://` address that attaches to it; a host nothing answers on is one line with ssh's
/// error, and the run still lists the rest.
@Suite(.ownThread, .enabled(if: SSHServer.enabled, "\(SSHServer.missing ?? "")"))
struct SSHFleetListTests {
    /// `text`'s lines as JSON objects.
    private static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "a JSON object: \(line)")
        }
    }

    @Test func aHostOfTheHostsFileListsItsAppsAndADownHostIsOneLineWithItsError() throws {
        let server = try SSHServer()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "0"], runtime: runtime)
        defer { app.stop() }
        // This machine publishes nothing: everything listed comes over ssh.
        let localRuntime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: localRuntime) }
        let config = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/opsdash", withIntermediateDirectories: true)
        let down = "ssh://127.0.0.1:\(try ListeningPort.free())"
        try Data("# test hosts\nloop \(server.url())\ndown \(down)\n".utf8)
            .write(to: URL(fileURLWithPath: config + "/opsdash/hosts"))
        var environment = try server.environment(runtime: runtime)
        environment["XDG_RUNTIME_DIR"] = localRuntime
        environment["XDG_CONFIG_HOME"] = config

        let result = try runOpsdash(["attach", "--list", "--headless"], environment: environment)
        #expect(result.status == 1, "a host could not be listed: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        let objects = try Self.objects(result.stdout)
        #expect(objects.count == 2, "\(result.stdout)")
        let listed = try #require(objects.first { $0["host"] as? String == "loop" }, "\(result.stdout)")
        #expect(listed["app"] as? String == "AppExample")
        #expect(listed["queue"] as? String == "images")
        #expect(listed["pid"] as? Int == Int(app.process.processIdentifier))
        #expect(listed["state"] as? String == "live", "\(listed)")
        #expect(listed["waiting"] is Int)
        #expect(listed["address"] as? String == server.url("AppExample/images"))
        let unreachable = try #require(objects.first { $0["host"] as? String == "down" }, "\(result.stdout)")
        #expect(unreachable["state"] as? String == "unreachable")
        #expect(unreachable["address"] as? String == down)
        let error = try #require(unreachable["error"] as? String)
        #expect(error.contains("Connection refused") && error.hasSuffix("(ssh exit 255)"), "\(error)")

        // One host named on the command line: only its apps, labelled with its host name.
        let one = try runOpsdash(["attach", "--list", "--headless", server.url()], environment: environment)
        #expect(one.status == 0, "\(one.stderr)")
        let only = try Self.objects(one.stdout)
        #expect(only.count == 1, "\(one.stdout)")
        #expect(only.first?["host"] as? String == "127.0.0.1")
        #expect(only.first?["pid"] as? Int == Int(app.process.processIdentifier))

        // The address a line gives attaches to that app.
        let attached = try runOpsdash(
            ["attach", "--headless", server.url("AppExample/images")], signalAfterFirstLine: SIGINT,
            environment: environment)
        #expect(attached.status == 130, "\(attached.stderr)")
    }

    /// The live list in tmux: a host's app with its label in HOST, Enter into its dashboard
    /// over ssh and Esc back, and a host that is down as one row whose Enter says why.
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theLiveListShowsAHostsAppOpensItOverSSHAndADownHostAsItsError() throws {
        let server = try SSHServer()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--speed", "2"], runtime: runtime)
        defer { app.stop(SIGKILL) }
        let localRuntime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: localRuntime) }
        let config = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/opsdash", withIntermediateDirectories: true)
        let down = "ssh://127.0.0.1:\(try ListeningPort.free())"
        try Data("loop \(server.url())\ndown \(down)\n".utf8).write(to: URL(fileURLWithPath: config + "/opsdash/hosts"))
        var environment = try server.environment(runtime: runtime)
        environment["XDG_RUNTIME_DIR"] = localRuntime
        environment["XDG_CONFIG_HOME"] = config
        let binary = try OpsdashBuild.debug.binary()
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(shellQuote($0.value))" }
        let tmux = try TmuxSession(
            command: "env \(assignments.joined(separator: " ")) \(shellQuote(binary)) attach", width: 110, height: 12)
        defer { quit(tmux) }

        let pid = app.process.processIdentifier
        let listed = try tmux.waitUntil { screen in
            screen.split(separator: "\n").contains {
                $0.hasPrefix("AppExample/images") && $0.contains(" \(pid) loop ") && $0.hasSuffix("now")
            } && screen.contains("down: ssh: connect to host 127.0.0.1 port")
        }
        #expect(listed.matched, "\(listed.screen)")

        try tmux.sendKeys("Enter")
        let dashboard = try tmux.waitUntil { $0.contains("AppExample/images[\(pid)]@127.0.0.1 connected") }
        #expect(dashboard.matched, "\(dashboard.screen)")
        try tmux.sendKeys("Escape")
        let back = try tmux.waitUntil { $0.contains("fleet │ 1 published queue") }
        #expect(back.matched, "Esc came back to the list: \(back.screen)")

        try tmux.sendKeys("End")
        try tmux.sendKeys("Enter")
        let said = try tmux.waitUntil {
            $0.split(separator: "\n").last?.hasPrefix("down: ssh: connect to host 127.0.0.1 port") == true
        }
        #expect(said.matched, "Enter on the down host says why in the message line: \(said.screen)")
    }

    @Test func aBadHostsFileIsOneLineAndExit2() throws {
        let config = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/opsdash", withIntermediateDirectories: true)
        try Data("db-3 tcp://db-3:22\n".utf8).write(to: URL(fileURLWithPath: config + "/opsdash/hosts"))
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let result = try runOpsdash(
            ["attach", "--list", "--headless"], environment: ["XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "opsdash: \(config)/opsdash/hosts:1: bad address tcp://db-3:22: expected ssh://[USER@]HOST[:PORT][/NAME]\n"
        )
        #expect(result.stdout.isEmpty)
    }
}
