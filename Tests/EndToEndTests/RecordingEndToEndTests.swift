import Foundation
import OpsKitTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `opsdash --record` and `opsdash replay`, through the real binary.
@Suite(.ownThread) struct RecordingEndToEndTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-\(name)-\(UUID().uuidString).jsonl").path
    }

    /// A recording header, app "a", queue "q".
    static let header =
        #"{"event":"recording","format":"opsdash-recording","version":1,"app":"a","queue":"q","started":"","source":"local"}"#

    /// Writes a recording: `header`, then `lines`, each ending in a newline; returns its path.
    static func writeRecording(_ name: String, _ lines: [String]) throws -> String {
        let path = temporaryPath(name)
        try ([header] + lines).map { $0 + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Event lines of a headless stream or a replay: no summary, no `seq`.
    static func eventLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
            .filter { !$0.contains(#""event":"summary""#) }
            .map { $0.replacingOccurrences(of: #",\"seq\":[0-9]+"#, with: "", options: .regularExpression) }
    }

    @Test func aRecordedRunReplaysHeadlessAsTheSameEvents() throws {
        let path = Self.temporaryPath("record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try runOpsdash([
            "--headless", "--scenario", "flaky", "--speed", "200", "--seed", "5", "--record", path,
        ])
        #expect(run.status == 1, "flaky has failures")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            recording.hasPrefix(
                #"{"event":"recording","format":"opsdash-recording","version":1,"app":"opsdash","queue":"flaky","started":""#
            ))
        #expect(recording.contains(#""event":"snapshot_begin""#), "the last keyframe at least")
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000"])
        #expect(replay.status == 0)
        #expect(replay.stderr == "")
        let expected = Self.eventLines(run.stdout)
        #expect(expected.count > 100)
        #expect(Self.eventLines(replay.stdout) == expected)
        // Both end with a summary of the same counts (the replay's time is the recording's last).
        #expect(Self.summaryCounts(replay.stdout) == Self.summaryCounts(run.stdout))
        #expect(Self.summaryCounts(replay.stdout)?.hasPrefix(#""operations":"#) == true, "\(replay.stdout.suffix(300))")
    }

    /// The last line's fields from `operations` to `total`, if it is a summary.
    static func summaryCounts(_ text: String) -> Substring? {
        guard let last = text.split(separator: "\n").last, last.contains(#""event":"summary""#),
            let from = last.range(of: #""operations":"#), let to = last.range(of: #","duration":"#)
        else { return nil }
        return last[from.lowerBound..<to.lowerBound]
    }

    @Test func idleLimitShortensLongPauses() throws {
        // Two events 600 s apart: played at speed 1 that is ten minutes; capped at 0.2 s, a moment.
        let first = #"{"t":1,"event":"state","id":1,"op":"a","from":null,"to":"ready","seq":1}"#
        let second = #"{"t":601,"event":"state","id":1,"op":"a","from":"ready","to":"executing","seq":2}"#
        let path = try Self.writeRecording("idle", [first, second])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let started = ContinuousClock.now
        let replay = try runOpsdash(["replay", path, "--headless", "--idle-limit", "0.2"])
        #expect(replay.status == 0)
        #expect(
            replay.stdout == first + "\n" + second + "\n"
                + #"{"t":601.000,"event":"summary","operations":1,"waiting":0,"ready":0,"executing":1,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":0,"duration":601.000,"interrupted":false}"#
                + "\n")
        #expect(ContinuousClock.now - started < .seconds(60), "the 600 s pause was not shortened")
    }

    /// Stopped by a signal, a replay ends like the other headless modes: the summary of what it
    /// replayed, marked interrupted, and 130.
    @Test func anInterruptedReplayEndsWithTheSummarySoFar() throws {
        let first = #"{"t":1,"event":"state","id":1,"op":"a","from":null,"to":"ready","seq":1}"#
        let second = #"{"t":601,"event":"state","id":1,"op":"a","from":"ready","to":"executing","seq":2}"#
        let path = try Self.writeRecording("interrupted", [first, second])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try runOpsdash(["replay", path, "--headless"], signalAfterFirstLine: SIGINT)
        #expect(replay.status == 130)
        #expect(
            replay.stdout == first + "\n"
                + #"{"t":1.000,"event":"summary","operations":1,"waiting":0,"ready":1,"executing":0,"succeeded":0,"failed":0,"cancelled":0,"bytes":0,"total":0,"duration":1.000,"interrupted":true}"#
                + "\n")
    }

    @Test func startAtBeginsWithTheKeyframeThere() throws {
        let path = Self.temporaryPath("record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A limit that is not the default 1: no event carries it, the recording's first keyframe does.
        _ = try runOpsdash([
            "--headless", "--scenario", "pipeline", "--speed", "200", "--concurrency", "2", "--record", path,
        ])
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000", "--start-at", "0:07"])
        #expect(replay.status == 0)
        let lines = replay.stdout.split(separator: "\n")
        let keyframe = String(lines.first ?? "")
        #expect(keyframe.hasPrefix(#"{"t":7.000000000,"event":"snapshot_begin","seq":"#), "\(keyframe)")
        #expect(keyframe.contains(#""limit":2,"#), "\(keyframe)")
        let firstEvent = lines.first { $0.contains(#""event":"state""#) || $0.contains(#""event":"progress""#) }
        let time = firstEvent.flatMap { $0.split(separator: ",").first?.dropFirst(5) }.flatMap { Double($0) }
        #expect((time ?? 0) > 7, "no event before the start")
        // The keyframe's seq is the last event it includes: the next one written follows it.
        let seq = { (line: Substring) in
            line.firstRange(of: #""seq":"#).flatMap { UInt64(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
        let keyframeSeq = try #require(seq(Substring(keyframe)))
        #expect(keyframeSeq > 0)
        #expect(firstEvent.flatMap(seq) == keyframeSeq + 1)
    }

    @Test func startAtPastTheEndIsRefusedWithTheRecordingsLength() throws {
        let event = #"{"t":61.5,"event":"state","id":1,"op":"a","from":null,"to":"ready","seq":1}"#
        let path = try Self.writeRecording("short", [event])
        defer { try? FileManager.default.removeItem(atPath: path) }
        for mode in [["--headless"], []] {
            let late = try runOpsdash(["replay", path, "--start-at", "1:02"] + mode)
            #expect(late.status == 2)
            #expect(late.stdout == "")
            #expect(
                late.stderr
                    == "opsdash: \(path): --start-at 1:02 is past the end of the recording (it ends at 1:01.500)\n")
        }
        let atTheEnd = try runOpsdash(["replay", path, "--headless", "--start-at", "61.5"])
        #expect(atTheEnd.status == 0, "\(atTheEnd.stderr)")
    }

    @Test(arguments: [
        ("", "empty recording (no header line)"),
        ("{\"t\":1,\n", "1: not a recording: "),
        (
            #"{"t":1,"event":"added","id":1,"op":"a","kind":"other","total":0,"after":[]}"# + "\n",
            #"1: not a recording: the first line must be a "recording" header"#
        ),
        (
            #"{"event":"recording","format":"opsdash-recording","version":9,"app":"a","queue":"q","started":"","source":"local"}"#
                + "\n", "1: format version 9 is newer than this opsdash reads (1)"
        ),
        (
            #"{"event":"recording","format":"opsdash-recording","version":1,"app":"a","queue":"q","started":"","source":"local"}"#
                + "\n"
                + #"{"t":1,"event":"state","id":1,"op":"a","from":null,"to":"ready","seq":4}"# + "\n"
                + #"{"t":2,"event":"state","id":1,"op":"a","from":"ready","to":"executing","seq":3}"# + "\n",
            "3: seq 3 after seq 4: out of order"
        ),
        (
            #"{"event":"recording","format":"opsdash-recording","version":1,"app":"a","queue":"q","started":"","source":"local"}"#
                + "\n"
                + "[1,2]\n{}\n", "2: line is not a JSON object"
        ),
    ])
    func aBadRecordingExitsTwoNamingFileLineAndProblem(_ text: String, _ problem: String) throws {
        let path = Self.temporaryPath("bad")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for mode in [["--headless"], []] {
            let result = try runOpsdash(["replay", path] + mode)
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(
                result.stderr.hasPrefix("opsdash: \(path)\(problem.hasPrefix("empty") ? ": " : ":")\(problem)"),
                "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func aMissingFileAndBadFlagsExitTwo() throws {
        let missing = try runOpsdash(["replay", "/nonexistent/rec.jsonl", "--headless"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "opsdash: /nonexistent/rec.jsonl: no such file\n")
        let badTime = try runOpsdash(["replay", "x", "--start-at", "1:xx"])
        #expect(badTime.status == 2)
        let range = "seconds, m:ss or h:mm:ss (mm and ss below 60) between 0 and 9999:59:59"
        #expect(badTime.stderr == "opsdash: --start-at must be \(range) (got 1:xx)\n")
        for (flag, value) in [
            ("--start-at", "1e17"), ("--start-at", "99999999999999999999:00"), ("--idle-limit", "1e300"),
        ] {
            let huge = try runOpsdash(["replay", "x", "--headless", flag, value])
            #expect(huge.status == 2, "\(flag) \(value) must be refused, not crash")
            #expect(huge.stderr.hasPrefix("opsdash: \(flag) must be "), "\(huge.stderr)")
            #expect(huge.stderr.split(separator: "\n").count == 1)
        }
        let unwritable = try runOpsdash([
            "--headless", "--scenario", "pipeline", "--record", "/nonexistent/dir/rec.jsonl",
        ])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.hasPrefix("opsdash: /nonexistent/dir/rec.jsonl: cannot create: "))
        // Checked before the scenario loads (a million operations take seconds): a scenario
        // that does not exist is not even looked at.
        let first = try runOpsdash([
            "--headless", "--scenario", "/nonexistent/scenario.json", "--record", "/nonexistent/dir/rec.jsonl",
        ])
        #expect(first.status == 2)
        #expect(first.stderr.hasPrefix("opsdash: /nonexistent/dir/rec.jsonl: cannot create: "), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/dir"))
    }

    @Test func anExistingRecordingIsKeptUnlessOverwriteIsGiven() throws {
        let path = Self.temporaryPath("existing")
        defer { unlink(path) }
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let refused = try runOpsdash(["--headless", "--scenario", "pipeline", "--speed", "500", "--record", path])
        #expect(refused.status == 2)
        #expect(refused.stderr == "opsdash: \(path): already exists (add --overwrite to replace it)\n")
        #expect(refused.stdout == "", "refused before the run starts")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious\n")
        let replaced = try runOpsdash([
            "--headless", "--scenario", "pipeline", "--speed", "500", "--record", path, "--overwrite",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(#"{"event":"recording""#))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600, "owner only, as the socket is")
        let alone = try runOpsdash(["--headless", "--scenario", "pipeline", "--overwrite"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--overwrite is only for --record"), "\(alone.stderr)")
    }

    @Test(.timeLimit(.minutes(1))) func aFIFOADeviceOrADirectoryIsRefusedAtOnce() throws {
        let fifo = Self.temporaryPath("fifo")
        defer { unlink(fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        let directory = FileManager.default.temporaryDirectory.path
        for (path, problem) in [
            (fifo, "is a pipe (FIFO), not a regular file"), ("/dev/zero", "is a character device, not a regular file"),
            (directory, "is a directory, not a file"),
        ] {
            let result = try runOpsdash(["replay", path, "--headless"])
            #expect(result.status == 2)
            #expect(result.stderr == "opsdash: \(path): \(problem)\n")
        }
    }

    @Test func aTornLastLineReplaysWithAWarning() throws {
        let path = Self.temporaryPath("torn")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try runOpsdash(["--headless", "--scenario", "pipeline", "--speed", "500", "--record", path])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        handle.write(Data(#"{"t":99.0,"event":"sta"#.utf8))
        try handle.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000"])
        #expect(replay.status == 0)
        #expect(replay.stderr == "opsdash: warning: \(path):\(lines): last line is incomplete (torn write); ignored\n")
        #expect(!replay.stdout.isEmpty)
    }

    /// A file-size limit (`ulimit -f`) ends the recording, not the run: without SIGXFSZ
    /// ignored, the first write past the limit killed opsdash (shell status 153).
    @Test func aFileSizeLimitStopsTheRecordingAndTheRunGoesOn() throws {
        let path = Self.temporaryPath("limited")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = #"ulimit -f 8 && exec "$0" --headless --scenario pipeline --speed 500 --record "$1""#
        let (process, out, err) = try startProcess("/bin/sh", ["-c", script, try OpsdashBuild.debug.binary(), path])
        let errors = ReadAll(err.fileHandleForReading)
        let events = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errors.wait(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.hasPrefix("opsdash: recording stopped: \(path): write failed: File too large\n"), "\(stderr)")
        // The run went on to its end: the summary line closes the stream.
        let last = String(decoding: events, as: UTF8.self).split(separator: "\n").last ?? ""
        #expect(last.contains(#""event":"summary""#), "\(last)")
    }

    /// In the dashboard, a recording stopped by a file-size limit says so in the message line
    /// (stderr goes to a log while the screen is up), and on stderr once the screen closes.
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func aStoppedRecordingIsShownInTheDashboard() throws {
        let path = Self.temporaryPath("tui-limited")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let limited =
            "ulimit -f 8 && exec \(shellQuote(binary)) --scenario pipeline --speed 20 --record \(shellQuote(path))"
        let tmux = try TmuxSession(command: "/bin/sh -c \(shellQuote(limited))")
        defer { tmux.kill() }
        let shown = try tmux.waitUntil(timeout: .seconds(30)) { $0.contains("recording stopped") }
        #expect(shown.matched, "no message in the dashboard:\n\(shown.screen)")
        #expect(shown.screen.contains("write failed: File too"), "\(shown.screen)")
        try tmux.sendKeys("q")
        let quit = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
        #expect(
            quit.screen.contains("opsdash: recording stopped: "), "said on stderr after the screen:\n\(quit.screen)")
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theDashboardRecordsWhileItRuns() throws {
        let path = Self.temporaryPath("tui-record")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(
            command: "\(shellQuote(binary)) --scenario pipeline --speed 100 --record \(shellQuote(path))")
        defer { tmux.kill() }
        let done = try tmux.waitUntil(timeout: .seconds(30)) { headerCount("succeeded", in: $0) == 25 }
        #expect(done.matched, "the run never finished:\n\(done.screen)")
        try tmux.sendKeys("q")
        let quit = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
        #expect(quit.matched && tmux.exitStatus(in: quit.screen) == 0, "\(quit.screen)")
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.components(separatedBy: #""to":"finished","outcome":"succeeded""#).count - 1 == 25)
    }

    /// "1:23 / 4:56" in the replay header.
    static func replayClock(_ screen: String) -> (position: String, total: String)? {
        guard let range = screen.range(of: #"[0-9]+:[0-9]{2} / [0-9]+:[0-9]{2}"#, options: .regularExpression) else {
            return nil
        }
        let parts = screen[range].components(separatedBy: " / ")
        return (parts[0], parts[1])
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theDashboardReplaysARecordingAndRefusesQueueCommands() throws {
        let path = Self.temporaryPath("tui")
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try runOpsdash(["--headless", "--scenario", "pipeline", "--speed", "200", "--record", path])
        let binary = try #require(opsdashBinaryPath(), "opsdash binary not found")
        let tmux = try TmuxSession(
            command: "\(shellQuote(binary)) replay \(shellQuote(path)) --speed 1 --start-at 0:05")
        defer { tmux.kill() }
        let shown = try tmux.waitUntil { $0.contains("REPLAY pipeline") && $0.contains("playing") }
        #expect(shown.matched, "no REPLAY header:\n\(shown.screen)")
        try tmux.sendKeys("+")  // a concurrency change: always a command, whatever is selected
        let refused = try tmux.waitUntil { $0.contains("replay: a recording cannot be changed") }
        #expect(refused.matched, "the limit change was not refused:\n\(refused.screen)")
        try tmux.sendKeys(" ")
        let paused = try tmux.waitUntil { $0.contains(" paused") }
        #expect(paused.matched, "space did not pause:\n\(paused.screen)")
        // End and Home jump; the header shows the recording's clock at the playhead.
        let duration = try #require(Self.replayClock(paused.screen)?.total)
        try tmux.sendKeys("End")
        let atEnd = try tmux.waitUntil { Self.replayClock($0)?.position == duration }
        #expect(atEnd.matched, "End did not jump to \(duration):\n\(atEnd.screen)")
        try tmux.sendKeys("Home")
        let atStart = try tmux.waitUntil { Self.replayClock($0)?.position == "0:00" }
        #expect(atStart.matched, "Home did not jump to 0:00:\n\(atStart.screen)")
        try tmux.sendKeys("Right")
        let later = try tmux.waitUntil { Self.replayClock($0)?.position == "0:10" }
        #expect(later.matched, "→ did not seek 10 s:\n\(later.screen)")
        try tmux.sendKeys("q")
        let quit = try tmux.waitUntil { tmux.exitStatus(in: $0) != nil }
        #expect(quit.matched && tmux.exitStatus(in: quit.screen) == 0, "\(quit.screen)")
    }
}
