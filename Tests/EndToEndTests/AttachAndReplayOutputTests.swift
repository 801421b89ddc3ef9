import Foundation
import OpsKitTesting
import Testing

/// `attach --headless` and `replay --headless` end like local headless mode when their output
/// can't be written: 141 at once and quietly for a reader that went away, 3 with one line for
/// any other write error.
@Suite(.ownThread) struct AttachAndReplayOutputTests {
    private static let fullDisk = "opsdash: cannot write the event stream to standard output: No space left on device\n"

    /// The demo app publishing until it is stopped, and the shell words that point at it.
    private static func publishingApp() throws -> (app: PublishingApp, environment: String) {
        let runtime = try PublishingApp.makeRuntime()
        let app = try PublishingApp(["--rounds", "0", "--speed", "4"], runtime: runtime)
        return (app, "XDG_RUNTIME_DIR='\(runtime)'")
    }

    @Test func attachHeadlessWhoseReaderGoesAwayEndsAtOnceQuietlyWith141() throws {
        let (app, environment) = try Self.publishingApp()
        defer { try? FileManager.default.removeItem(atPath: app.runtime) }
        let started = ContinuousClock.now
        // The app publishes until stopped: ending at all means the broken pipe ended the viewer.
        let result = try runBash(
            environment + #" "$0" attach --headless | head -1 > /dev/null; echo "${PIPESTATUS[0]}""#,
            binary: try OpsdashBuild.debug.binary())
        #expect(result.stdout == "141\n")
        #expect(result.stderr == "")
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(app.process.isRunning, "the app goes on without its viewer")
    }

    @Test func attachHeadlessToAFullDiskIsReportedOnceAndExitsThree() throws {
        let (app, environment) = try Self.publishingApp()
        defer { try? FileManager.default.removeItem(atPath: app.runtime) }
        let result = try runBash(
            environment + #" "$0" attach --headless > /dev/full; echo "$?""#, binary: try OpsdashBuild.debug.binary())
        #expect(result.stdout == "3\n")
        #expect(result.stderr == Self.fullDisk)
    }

    @Test func attachAndReplayHeadlessWithStdoutClosedAreReportedOnceAndExitThree() throws {
        let (app, environment) = try Self.publishingApp()
        defer { try? FileManager.default.removeItem(atPath: app.runtime) }
        let path = RecordingEndToEndTests.temporaryPath("replay-closed")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try runOpsdash(["--headless", "--scenario", "mixed", "--speed", "1000", "--record", path])
        for script in [
            environment + #" "$0" attach --headless >&-; echo "$?""#, #""$0" replay "$1" --headless >&-; echo "$?""#,
        ] {
            let result = try runBash(script, binary: try OpsdashBuild.debug.binary(), path)
            #expect(result.stdout == "3\n", "\(script)")
            #expect(
                result.stderr == "opsdash: cannot write the event stream to standard output: Bad file descriptor\n",
                "\(script)")
        }
    }

    @Test func replayHeadlessWhoseReaderGoesAwayEndsAtOnceQuietlyWith141() throws {
        let path = RecordingEndToEndTests.temporaryPath("replay-pipe")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // One operation's progress every 0.1 s for 40 s (a recorded run's own pace depends on the
        // machine's load): played at speed 1, ending long before 40 s means it stopped.
        var lines = [
            #"{"event":"recording","format":"opsdash-recording","version":1,"app":"a","queue":"q","started":"","source":"local"}"#,
            #"{"t":0,"event":"added","id":1,"op":"a","kind":"download","unit":"bytes","total":400,"after":[]}"#,
            #"{"t":0,"event":"state","id":1,"op":"a","from":null,"to":"ready"}"#,
            #"{"t":0,"event":"state","id":1,"op":"a","from":"ready","to":"executing"}"#,
        ]
        for step in 1...400 {
            lines.append(
                #"{"t":\#(Double(step) / 10),"event":"progress","id":1,"op":"a","bytes":\#(step),"total":400,"rate":10,"retries":0}"#
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let result = try runBash(
            #""$0" replay "$1" --headless | head -1 > /dev/null; echo "${PIPESTATUS[0]}""#,
            binary: try OpsdashBuild.debug.binary(), path)
        #expect(result.stdout == "141\n")
        #expect(result.stderr == "")
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test func replayHeadlessToAFullDiskIsReportedOnceAndExitsThree() throws {
        let path = RecordingEndToEndTests.temporaryPath("replay-full")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try runOpsdash(["--headless", "--scenario", "burst", "--speed", "1000", "--record", path])
        let result = try runBash(
            #""$0" replay "$1" --headless --speed 10000 > /dev/full; echo "$?""#,
            binary: try OpsdashBuild.debug.binary(), path)
        #expect(result.stdout == "3\n")
        #expect(result.stderr == Self.fullDisk)
    }
}
