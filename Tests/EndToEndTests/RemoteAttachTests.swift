import Foundation
import OpsKitTesting
import Testing

/// Quits the dashboard with `q` (waiting until it has ended), then kills the tmux server: a
/// killed server alone does not always end the program in its pane.
func quit(_ tmux: TmuxSession) {
    _ = try? tmux.sendKeys("q")
    _ = try? tmux.waitUntil(timeout: .seconds(5)) { tmux.exitStatus(in: $0) != nil }
    tmux.kill()
}

/// AppExample publishing with control granted, and `opsdash attach images` in tmux showing it
/// connected (and whatever else `until` waits for).
private struct ControlledApp {
    let runtime: String
    let app: PublishingApp
    let binary: String
    let tmux: TmuxSession
    /// The screen once the header said `connected (control)` and `until` held, or at the timeout.
    let shown: (matched: Bool, screen: String)

    init(until: (String) -> Bool) throws {
        runtime = try PublishingApp.makeRuntime()
        app = try PublishingApp(["--speed", "2", "--allow-control"], runtime: runtime)
        binary = try #require(opsdashBinaryPath())
        tmux = try TmuxSession(
            command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach images")
        let header = "AppExample/images[\(app.process.processIdentifier)] connected (control)"
        shown = try tmux.waitUntil { $0.contains(header) && until($0) }
    }

    /// Quits the dashboard, stops the app and removes the runtime directory.
    func close() {
        quit(tmux)
        app.stop(SIGKILL)
        try? FileManager.default.removeItem(atPath: runtime)
    }
}

/// `opsdash attach` against a real app process publishing its queue over a Unix socket.
@Suite(.ownThread) struct RemoteAttachTests {
    /// Over the shared-memory stream (the default for a local viewer) and over the socket only,
    /// with the debug and the release `opsdash`.
    @Test(arguments: OpsdashBuild.allCases, [[String](), ["--no-shared-memory"]])
    func attachHeadlessStreamKeepsEveryRuleAndEndsWhenTheAppSaysBye(build: OpsdashBuild, flags: [String]) throws {
        _ = try build.binary()  // built before the app starts: a release build can outlast the app's run
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "2", "--speed", "20"], runtime: runtime)
        let listed = try runOpsdash(["attach", "--list"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(
            listed.stdout.hasPrefix("AppExample/images: pid \(app.process.processIdentifier), since "),
            "\(listed.stdout)")
        let result = try runOpsdash(
            ["attach", "--headless"] + flags, build: build, environment: ["XDG_RUNTIME_DIR": runtime])
        var checker = EventStreamChecker(limit: 3)
        checker.check(result.stdout)
        #expect(checker.problems.isEmpty, "\(checker.problems.prefix(5))")
        #expect(checker.summary?["operations"] as? Int == 24)
        #expect(checker.summary?["interrupted"] as? Bool == false)
        #expect(checker.outcomes["thumb-1-6"] == "cancelled")
        #expect(result.status == 1, "one operation was cancelled: \(result.stderr)")
        #expect(app.waitForExit())
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: runtime + "/opsdash"))?.isEmpty == true,
            "the app removed its socket and sidecar")
    }

    /// A viewer that joins after thumbnails did some tiles (items) sums the same bytes as one
    /// that saw everything: only bytes operations count, whenever the viewer joined.
    @Test func aViewerJoiningAfterTilesWereDoneCountsWhatAnEarlyViewerCounts() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let app = try PublishingApp(["--rounds", "3", "--speed", "10"], runtime: runtime)
        let environment = ["XDG_RUNTIME_DIR": runtime]
        let (early, out, err) = try startProcess(
            try OpsdashBuild.debug.binary(), ["attach", "--headless"], environment: environment)
        let earlyErrors = ReadAll(err.fileHandleForReading)
        var earlyText = ""
        while !earlyText.contains(#""event":"progress","id":2,"op":"thumb-1-1","bytes":"#) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            earlyText += String(decoding: chunk, as: UTF8.self)
        }
        let late = try runOpsdash(["attach", "--headless"], environment: environment)
        earlyText += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        early.waitUntilExit()
        #expect(early.terminationStatus == 1, "\(String(decoding: earlyErrors.wait(), as: UTF8.self))")
        #expect(late.status == 1, "one operation was cancelled: \(late.stderr)")
        #expect(app.waitForExit())
        var checkers = (early: EventStreamChecker(limit: 3), late: EventStreamChecker(limit: 3))
        checkers.early.check(earlyText)
        checkers.late.check(late.stdout)
        #expect(checkers.early.problems.isEmpty, "\(checkers.early.problems.prefix(5))")
        #expect(checkers.late.problems.isEmpty, "\(checkers.late.problems.prefix(5))")
        #expect(late.stdout.contains(#""op":"thumb-1-1","kind":"process","unit":"items""#))
        let bytes = checkers.early.summary?["bytes"] as? Int
        #expect(bytes != nil && checkers.late.summary?["bytes"] as? Int == bytes)
        #expect(checkers.early.summary?["total"] as? Int == checkers.late.summary?["total"] as? Int)
    }

    @Test func attachHeadlessRecordReplaysAsTheSameEvents() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let path = RecordingEndToEndTests.temporaryPath("attach")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try PublishingApp(["--rounds", "2", "--speed", "20"], runtime: runtime)
        let attached = try runOpsdash(
            ["attach", "--headless", "--record", path], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(attached.status == 1, "one operation was cancelled: \(attached.stderr)")
        #expect(app.waitForExit())
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            recording.hasPrefix(
                #"{"event":"recording","format":"opsdash-recording","version":1,"app":"AppExample","queue":"images","started":""#
            ),
            "\(recording.prefix(200))")
        #expect(recording.split(separator: "\n").first?.contains(#""source":"attach""#) == true)
        #expect(recording.contains(#""event":"snapshot_begin""#), "the join's keyframe at least")
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr == "")
        let expected = RecordingEndToEndTests.eventLines(attached.stdout)
        #expect(expected.count > 50)
        #expect(RecordingEndToEndTests.eventLines(replay.stdout) == expected)
        #expect(
            expected.contains { $0.contains(#""op":"thumb-1-6""#) && $0.contains("cancelled") },
            "the stream is the app's")
        let unwritable = try runOpsdash(
            ["attach", "--headless", "--record", runtime + "/no/such/dir.jsonl"],
            environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(unwritable.status == 2)
        #expect(
            unwritable.stderr.hasPrefix("opsdash: \(runtime)/no/such/dir.jsonl: cannot create: "),
            "\(unwritable.stderr)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o7777 == 0o600, "the recording is the user's alone")
        let recorded = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try runOpsdash(
            ["attach", "--headless", "--record", path], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(refused.status == 2)
        #expect(refused.stderr == "opsdash: \(path): already exists (add --overwrite to replace it)\n")
        let nothing = try runOpsdash(
            ["attach", "--headless", "--record", path, "--overwrite"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(nothing.status == 2, "the app has gone: \(nothing.stderr)")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == recorded,
            "an existing file is left as it was when nothing was attached")
        let fresh = path + ".new"
        let none = try runOpsdash(
            ["attach", "--headless", "--record", fresh], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(none.status == 2, "the app has gone: \(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh), "no recording is left when nothing was attached")
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func theDashboardRecordsWhatItShows() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let path = RecordingEndToEndTests.temporaryPath("attach-tui")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let app = try PublishingApp(["--rounds", "1", "--speed", "20"], runtime: runtime)
        let binary = try #require(opsdashBinaryPath())
        let tmux = try TmuxSession(
            command:
                "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach --record \(shellQuote(path))")
        defer { quit(tmux) }
        let ended = try tmux.waitUntil(timeout: .seconds(30)) { $0.contains("disconnected: app shutting down") }
        #expect(ended.matched, "the app did not finish:\n\(ended.screen)")
        #expect(app.waitForExit())
        try tmux.sendKeys("q")
        let quit = try tmux.waitUntil { tmux.exitStatus(in: $0) == 0 }
        #expect(quit.matched)
        #expect(
            quit.screen.contains("opsdash: detached from AppExample/images[") && quit.screen.contains(" operations: "),
            "q says what was seen, as a local run does:\n\(quit.screen)")
        let recording = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            recording.split(separator: "\n").first?.contains(#""app":"AppExample","queue":"images","started":""#)
                == true)
        #expect(recording.split(separator: "\n").first?.contains(#""source":"attach""#) == true)
        let replay = try runOpsdash(["replay", path, "--headless", "--speed", "10000"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let finished = replay.stdout.split(separator: "\n").filter { $0.contains(#""to":"finished""#) }
        #expect(finished.count == 12, "every operation of the round finishes in the replay: \(finished.count)")
    }

    @Test func attachRefusesADirectoryOthersCanEnter() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        try FileManager.default.createDirectory(
            atPath: runtime + "/opsdash", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let refusal = "opsdash: refusing \(runtime)/opsdash: mode 755 lets others in (needs 700)\n"
        for arguments in [["attach", "--list"], ["attach", "--headless"], ["attach", "--headless", "nosuch"]] {
            let result = try runOpsdash(arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr == refusal, "listed or looked up by name: \(arguments)")
            #expect(result.stdout.isEmpty)
        }
        // A socket path the user gives does not go through the runtime directory.
        let socket = runtime + "/opsdash/x.sock"
        let result = try runOpsdash(["attach", "--headless", socket], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(result.status == 2)
        #expect(result.stderr == "opsdash: cannot use \(socket): No such file or directory\n")
        chmod(runtime + "/opsdash", 0o700)
        let nothing = try runOpsdash(["attach"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(nothing.status == 2)
        #expect(
            nothing.stderr == "opsdash: no published queues in \(runtime)/opsdash (start an app that publishes one)\n")
        let unknown = try runOpsdash(["attach", "nosuch"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(unknown.status == 2)
        #expect(
            unknown.stderr
                == "opsdash: no published queue named nosuch in \(runtime)/opsdash: none is published there\n")
        let unknownLabel = try runOpsdash(["attach", "gone/queue"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(unknownLabel.status == 2)
        #expect(
            unknownLabel.stderr
                == "opsdash: no published queue named gone/queue in \(runtime)/opsdash: none is published there\n",
            "an app/queue that is not published reads as a name, not a missing file")
        let badFlag = try runOpsdash(["attach", "--fps", "0"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(badFlag.status == 2 && badFlag.stderr.hasPrefix("opsdash: "))
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func dashboardSteersTheAppAndShowsTheLink() throws {
        let attached = try ControlledApp { $0.contains("#1 ") }
        defer { attached.close() }
        let (runtime, binary, tmux) = (attached.runtime, attached.binary, attached.tmux)
        #expect(attached.shown.matched, "no connected header:\n\(attached.shown.screen)")
        try tmux.sendKeys("p")
        let paused = try tmux.waitUntil { $0.contains("PAUSED") }
        #expect(paused.matched, "the app's queue did not pause:\n\(paused.screen)")
        let audited = try tmux.waitUntil { $0.contains("uid \(geteuid())") && $0.contains(": suspend") }
        #expect(audited.matched, "the audit is not in the event log:\n\(audited.screen)")
        try tmux.sendKeys("+")
        let raised = try tmux.waitUntil { $0.contains("/4 ") && !$0.contains("refused") }
        #expect(raised.matched, "the limit did not rise to 4:\n\(raised.screen)")
        // c cancels the selected operation: the first one waiting for a slot. A paused queue
        // finishes a cancelled operation when it resumes.
        let before = try #require(headerCount("cancelled", in: raised.screen))
        // `f` filters the table to the ready rows (and selects the first): `c` cancels it.
        try tmux.sendKeys("f")
        try tmux.sendKeys("-l", "ready")
        try tmux.sendKeys("Enter")
        try tmux.sendKeys("c")
        #expect(try tmux.waitUntil { $0.contains("operator cancelled #") }.matched, "no cancel in the log")
        try tmux.sendKeys("p")
        let cancelled = try tmux.waitUntil {
            (headerCount("cancelled", in: $0) ?? 0) > before && $0.contains("RUNNING")
        }
        #expect(cancelled.matched, "nothing more was cancelled:\n\(cancelled.screen)")
        try tmux.sendKeys("p")
        #expect(try tmux.waitUntil { $0.contains("PAUSED") }.matched)
        // A read-only viewer's keys are refused in the message line.
        let readOnly = try TmuxSession(
            command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach --read-only")
        defer { quit(readOnly) }
        #expect(try readOnly.waitUntil { $0.contains("connected (read-only)") }.matched)
        try readOnly.sendKeys("p")
        let refused = try readOnly.waitUntil { $0.contains("refused: read-only attach") }
        #expect(refused.matched, "no refusal:\n\(refused.screen)")
        let stillPaused = try readOnly.waitUntil { $0.contains("PAUSED") }
        #expect(stillPaused.matched, "still paused: the refusal changed nothing:\n\(stillPaused.screen)")
        try readOnly.sendKeys("Down")  // clears the message line
        #expect(try readOnly.waitUntil { !$0.contains("refused:") }.matched)
        try readOnly.sendKeys("+")
        #expect(
            try readOnly.waitUntil { $0.contains("refused: read-only attach") && $0.contains("/4 ") }.matched,
            "+ was not refused")
        try readOnly.sendKeys("f")
        try readOnly.sendKeys("-l", "ready")
        try readOnly.sendKeys("Enter")
        #expect(try readOnly.waitUntil { !$0.contains("refused:") }.matched)
        try readOnly.sendKeys("c")
        #expect(try readOnly.waitUntil { $0.contains("refused: read-only attach") }.matched, "c was not refused")
        try tmux.sendKeys("q")
        #expect(try tmux.waitUntil { tmux.exitStatus(in: $0) == 0 }.matched)
    }

    /// `X` on what the filter lists, attached with control: one question with the count, one
    /// audit line naming it, and exactly those operations end cancelled in the app.
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func bulkCancelOfTheFilteredRowsIsAuditedAndCancelsThem() throws {
        let attached = try ControlledApp { $0.contains("#1 ") }
        defer { attached.close() }
        let tmux = attached.tmux
        #expect(attached.shown.matched, "no connected header:\n\(attached.shown.screen)")
        // Paused, what waits for a slot stays ready: the filter lists those, and they stay.
        try tmux.sendKeys("p")
        #expect(try tmux.waitUntil { $0.contains("PAUSED") }.matched)
        try tmux.sendKeys("a")  // the event log keeps the commands (the audit lines) in view
        try tmux.sendKeys("f")
        try tmux.sendKeys("-l", "ready")
        try tmux.sendKeys("Enter")
        try tmux.sendKeys("X")
        let pattern = /Cancel (\d+) operations? matching 'ready'\? \(y\/n\)/
        let asked = try tmux.waitUntil { $0.contains(pattern) }
        #expect(asked.matched, "no question with the count:\n\(asked.screen)")
        let count = try #require(asked.screen.firstMatch(of: pattern).flatMap { Int($0.1) })
        #expect(count > 0)
        let before = try #require(headerCount("cancelled", in: asked.screen))
        try tmux.sendKeys("y")
        let audit = "uid \(geteuid())"
        let audited = try tmux.waitUntil {
            $0.split(separator: "\n").contains { $0.contains(audit) && $0.contains("): cancel \(count) operations (#") }
        }
        #expect(audited.matched, "no audit line for the \(count) cancels:\n\(audited.screen)")
        let operatorLines = audited.screen.split(separator: "\n").filter { $0.contains("operator cancelled #") }
        #expect(operatorLines.count == count, "one cancel per operation listed:\n\(audited.screen)")
        // A paused queue finishes a cancelled ready operation when it resumes.
        try tmux.sendKeys("p")
        let cancelled = try tmux.waitUntil { (headerCount("cancelled", in: $0) ?? 0) >= before + count }
        #expect(cancelled.matched, "the \(count) operations were not cancelled:\n\(cancelled.screen)")
        try tmux.sendKeys("Escape")  // the filter off: the rows cancelled show as such
        let rows = try tmux.waitUntil { $0.split(separator: "\n").filter { $0.contains(" cancelled ") }.count >= 1 }
        #expect(rows.matched, "\(rows.screen)")
    }

    /// A held-down key sends faster than the app takes lines from a viewer (20 a second): the
    /// dashboard paces and merges its commands, so nothing is refused and every press counts.
    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func aHeldDownKeyStaysUnderTheAppsLineLimitAndEveryPressCounts() throws {
        let attached = try ControlledApp { $0.contains("/3 ") }
        defer { attached.close() }
        let tmux = attached.tmux
        #expect(attached.shown.matched, "no connected header with the limit at 3:\n\(attached.shown.screen)")
        try tmux.sendKeys("-l", String(repeating: "+", count: 120) + String(repeating: "p", count: 61))
        let settled = try tmux.waitUntil(timeout: .seconds(20)) { $0.contains("/123 ") && $0.contains("PAUSED") }
        #expect(settled.matched, "the limit did not reach 123 with the queue paused:\n\(settled.screen)")
        #expect(!settled.screen.contains("refused"), "\(settled.screen)")
        #expect(settled.screen.contains("connected (control)"), "\(settled.screen)")
        let applied = try tmux.waitUntil { $0.contains("uid \(geteuid())") && $0.contains("→123") }
        #expect(applied.matched, "the app did not audit the last limit:\n\(applied.screen)")
        try tmux.sendKeys("q")
        #expect(try tmux.waitUntil { tmux.exitStatus(in: $0) == 0 }.matched)
    }

    @Test(.enabled(if: tmuxTestsEnabled, "tmux missing (set CI=true to make this fail)"))
    func afterSIGKILLTheViewerSaysDisconnectedThenReconnectsToTheRestartedApp() throws {
        let runtime = try PublishingApp.makeRuntime()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let first = try PublishingApp(["--speed", "4"], runtime: runtime)
        let binary = try #require(opsdashBinaryPath())
        let tmux = try TmuxSession(command: "env XDG_RUNTIME_DIR=\(shellQuote(runtime)) \(shellQuote(binary)) attach")
        defer { quit(tmux) }
        #expect(
            try tmux.waitUntil { $0.contains("[\(first.process.processIdentifier)] connected") && $0.contains("#1 ") }
                .matched)
        first.stop(SIGKILL)
        let gone = try tmux.waitUntil { $0.contains("disconnected: ") }
        #expect(gone.matched, "no disconnected state:\n\(gone.screen)")
        #expect(gone.screen.contains("#1 "), "the last picture stays")
        let second = try PublishingApp(["--speed", "4"], runtime: runtime)
        let back = try tmux.waitUntil(timeout: .seconds(20)) {
            $0.contains("[\(second.process.processIdentifier)] connected")
        }
        #expect(back.matched, "did not reconnect to the new app:\n\(back.screen)")
        second.stop()
        let bye = try tmux.waitUntil { $0.contains("disconnected: app shutting down") }
        #expect(bye.matched, "the app's bye was not shown:\n\(bye.screen)")
        // Its socket is removed: the message line says so, not only that the app said bye.
        let removed = try tmux.waitUntil {
            $0.contains("AppExample.images.\(second.process.processIdentifier).sock gone")
        }
        #expect(removed.matched, "the removed socket was not said:\n\(removed.screen)")
    }
}
