import Foundation
import OpsKitTesting
import Testing

/// The ways to name what `opsdash attach` connects to, against one real app: by app/queue, by a
/// socket path outside the runtime directory (an `ssh -L` forward into /tmp), over TCP with the
/// right and a wrong token, and the refusals for unsafe or malformed targets.
@Suite(.ownThread) struct AttachTargetTests {
    /// A directory with `mode` holding a hard link to `socket` (the same listening socket).
    private static func link(_ socket: String, intoDirectoryWithMode mode: mode_t) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opsdash-fwd-\(UUID().uuidString)"
        )
        .path
        try #require(mkdir(directory, 0o700) == 0)
        #expect(chmod(directory, mode) == 0)
        let path = directory + "/app.sock"
        try #require(Foundation.link(socket, path) == 0, "a hard link reaches the same socket")
        return path
    }

    @Test func everyWayOfNamingTheAppAttachesAndUnsafeOrMalformedTargetsAreRefused() throws {
        _ = try OpsdashBuild.debug.binary()
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let port = try ListeningPort.free()
        let app = try PublishingApp(["--rounds", "0", "--tcp-port", "\(port)"], runtime: runtime)
        defer { app.stop() }
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let socket = try #require(app.socketPath)

        func attachesAndStreams(_ arguments: [String], _ what: Comment) throws {
            let result = try runOpsdash(
                ["attach", "--headless"] + arguments, signalAfterFirstLine: SIGINT, environment: environment)
            #expect(result.status == 130, "\(what): \(result.stderr)")
            #expect(result.stdout.hasPrefix(#"{"t":"#), "\(what): \(result.stdout.prefix(200))")
        }
        try attachesAndStreams(["AppExample/images"], "by app/queue")
        let forwarded = try Self.link(socket, intoDirectoryWithMode: 0o1777)
        defer { try? FileManager.default.removeItem(atPath: (forwarded as NSString).deletingLastPathComponent) }
        try attachesAndStreams([forwarded], "a socket in a sticky world-writable directory, like /tmp")
        let readToken = runtime + "/opsdash/AppExample.read.token"
        try attachesAndStreams(["tcp://127.0.0.1:\(port)", "--token-file", readToken], "over TCP")

        let swappable = try Self.link(socket, intoDirectoryWithMode: 0o777)
        let swappableDirectory = (swappable as NSString).deletingLastPathComponent
        defer { try? FileManager.default.removeItem(atPath: swappableDirectory) }
        let unsafe = try runOpsdash(["attach", "--headless", swappable], environment: environment)
        #expect(unsafe.status == 2)
        #expect(
            unsafe.stderr
                == "opsdash: refusing \(swappable): others may replace it in \(swappableDirectory) (mode 777)\n")

        let notSocket = runtime + "/plain.sock"
        #expect(FileManager.default.createFile(atPath: notSocket, contents: Data()))
        let plain = try runOpsdash(["attach", "--headless", notSocket], environment: environment)
        #expect(plain.status == 2)
        #expect(plain.stderr == "opsdash: refusing \(notSocket): not a socket\n")

        let wrongToken = runtime + "/wrong.token"
        try Data("not-the-token-at-all\n".utf8).write(to: URL(fileURLWithPath: wrongToken))
        chmod(wrongToken, 0o600)
        let refused = try runOpsdash(
            ["attach", "--headless", "tcp://127.0.0.1:\(port)", "--token-file", wrongToken], environment: environment)
        #expect(refused.status == 2, "refused for good, not 'lost connection': \(refused.stderr)")
        #expect(
            refused.stderr == "opsdash: tcp://127.0.0.1:\(port) refused the connection: wrong token (unauthorized)\n")
        #expect(refused.stdout.isEmpty, "nothing was attached, so no summary")

        for bad in ["tcp://127.0.0.1", "tcp://127.0.0.1:99999"] {
            let result = try runOpsdash(["attach", "--headless", bad], environment: environment)
            #expect(result.status == 2)
            #expect(result.stderr == "opsdash: bad address \(bad): expected tcp://HOST:PORT with PORT 1...65535\n")
        }
    }
}
