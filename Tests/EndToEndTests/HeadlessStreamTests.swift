import Foundation
import OpsKitTesting
import Testing

@Suite(.ownThread) struct HeadlessStreamTests {
    /// Each built-in scenario and the concurrency its file sets.
    static let scenarios: [(String, Int)] = [
        ("downloads", 4), ("uploads", 4), ("pipeline", 3), ("flaky", 5), ("mixed", 4), ("burst", 32),
    ]

    @Test(arguments: scenarios)
    func builtInScenarioStreamKeepsEveryRuleAndIsRepeatable(_ name: String, _ concurrency: Int) throws {
        let arguments = ["--headless", "--scenario", name, "--speed", "100", "--seed", "3"]
        let first = try runOpsdash(arguments)
        var checker = EventStreamChecker(limit: concurrency)
        checker.check(first.stdout)
        #expect(checker.problems.prefix(10) == [])
        #expect(!checker.outcomes.isEmpty)
        #expect(first.status == (checker.outcomes.values.allSatisfy { $0 == "succeeded" } ? 0 : 1))
        #expect(first.stderr == "")
        let second = try runOpsdash(arguments)
        var again = EventStreamChecker(limit: concurrency)
        again.check(second.stdout)
        #expect(again.outcomes == checker.outcomes, "same seed, same outcomes")
    }

    @Test func concurrencyFlagOverridesTheScenario() throws {
        let result = try runOpsdash(["--headless", "--scenario", "downloads", "--speed", "100", "--concurrency", "1"])
        var checker = EventStreamChecker(limit: 1)
        checker.check(result.stdout)
        #expect(checker.problems.prefix(10) == [])
    }

    @Test func badScenarioFileExitsTwoNamingFileAndProblem() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opsdash-bad-\(UUID().uuidString).json")
        try Data(
            #"{"name":"x","description":"d","concurrency":2,"seed":1,"operations":[{"id":"a","kind":"download","size":-5,"bandwidth":10}]}"#
                .utf8
        ).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try runOpsdash(["--headless", "--scenario", url.path])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(url.lastPathComponent) && result.stderr.contains("operations[0].size"))
    }

    @Test func listScenariosNamesEveryBuiltIn() throws {
        let result = try runOpsdash(["--list-scenarios"])
        #expect(result.status == 0)
        for (name, _) in Self.scenarios { #expect(result.stdout.contains(name)) }
    }

    @Test func interruptPrintsTheSummarySoFarAndExits130() throws {
        let result = try runOpsdash(["--headless", "--speed", "0.05"], signalAfterFirstLine: SIGINT)
        #expect(result.status == 130)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("\"event\":\"summary\""))
        #expect(last.contains("\"interrupted\":true"))
    }

    @Test func badFlagsExitTwoWithOneLine() throws {
        for arguments in [
            ["--concurrency", "0"], ["--speed", "-1"], ["--bogus"], ["--fps", "500"], ["--summary-every", "1"],
        ] {
            let result = try runOpsdash(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("opsdash: "), "\(arguments)")
        }
    }

    @Test func versionAndHelpAnswerOnStdoutAndExitZero() throws {
        let version = try runOpsdash(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.split(separator: ".").count == 3 && version.stdout.hasSuffix("\n"))
        let help = try runOpsdash(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Keys in the dashboard:") && help.stdout.contains("opsdash --list-scenarios"))
        #expect(help.stderr == "")
    }

    /// The subcommands are found from the binary: `--help` names them, `help [SUBCOMMAND]`
    /// prints the help of `opsdash` or of one subcommand, and the default run needs none.
    @Test func helpSubcommandAndTheSubcommandsSection() throws {
        let help = try runOpsdash(["--help"])
        let listed = help.stdout.split(separator: "\n").map { $0.split(separator: " ").first ?? "" }
        #expect(listed.contains("attach") && listed.contains("replay") && listed.contains("help"), "\(help.stdout)")
        let root = try runOpsdash(["help"])
        #expect(root.status == 0 && root.stderr == "")
        #expect(root.stdout == help.stdout)
        for name in ["attach", "replay"] {
            let sub = try runOpsdash(["help", name])
            #expect(sub.status == 0 && sub.stderr == "")
            #expect(sub.stdout == (try runOpsdash([name, "--help"])).stdout)
            #expect(sub.stdout.contains("USAGE: opsdash \(name)"))
        }
        let unknown = try runOpsdash(["help", "nosuch"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "opsdash: help: no subcommand 'nosuch' (opsdash help attach, opsdash help replay)\n")
    }

    @Test func summaryEveryPrintsHumanStatusOnStderr() throws {
        let result = try runOpsdash(["--headless", "--speed", "20", "--summary-every", "0.2"])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.hasPrefix("opsdash ") && $0.contains("finished ") && $0.contains("/s") })
        #expect(lines.last?.contains(": done, finished ") == true, "\(result.stderr)")
    }

    /// `burst` moves ~25 MB/s in thousands of short downloads: the status line's rate (bytes
    /// completed over the last two simulated seconds) must show it, with an ETA, mid-run.
    @Test func statusLineShowsTheRateOfManyShortOperations() throws {
        // At ×2 the run lasts ~7.5 s of wall time, so a status line falls due every 0.5 s even
        // when a debug build shares the machine (at ×5 a loaded machine printed only one).
        let result = try runOpsdash(["--headless", "--scenario", "burst", "--speed", "2", "--summary-every", "0.5"])
        #expect(result.status == 0)
        let running = result.stderr.split(separator: "\n").filter { $0.contains(": running ") }
        #expect(running.count >= 3, "\(result.stderr)")
        // The first line can come before two seconds of work; the rest are in full flow. The
        // last can fall after the last operation's final bytes but before its finish, when no
        // bytes remain and the line rightly has no ETA.
        for line in running.dropFirst() {
            #expect(line.contains(" MB/s"), "\(line)")
            #expect(!line.contains(" 0 B/s"), "\(line)")
        }
        for line in running.dropFirst().dropLast() {
            #expect(line.contains(" MB/s, ETA "), "\(line)")
        }
    }
}

@Suite(.ownThread) struct EventStreamCheckerTests {
    @Test func catchesEachKindOfViolation() {
        let stream = """
            {"t":0.000,"event":"added","id":1,"op":"a","kind":"download","total":10,"after":[]}
            {"t":0.000,"event":"state","id":1,"op":"a","from":null,"to":"ready"}
            {"t":0.000,"event":"added","id":2,"op":"b","kind":"download","total":10,"after":[1]}
            {"t":0.000,"event":"state","id":2,"op":"b","from":null,"to":"waiting"}
            {"t":0.100,"event":"state","id":2,"op":"b","from":"waiting","to":"executing"}
            {"t":0.100,"event":"state","id":1,"op":"a","from":"ready","to":"executing"}
            {"t":0.200,"event":"progress","id":1,"op":"a","bytes":8,"total":10,"rate":1,"retries":0}
            {"t":0.300,"event":"progress","id":1,"op":"a","bytes":5,"total":10,"rate":1,"retries":0}
            {"t":0.400,"event":"state","id":1,"op":"a","from":"executing","to":"finished","outcome":"succeeded"}
            {"t":0.400,"event":"added","id":3,"op":"c","kind":"download","total":10,"after":[]}
            {"t":0.400,"event":"state","id":3,"op":"c","from":null,"to":"ready"}
            {"t":0.400,"event":"added","id":4,"op":"d","kind":"download","total":10,"after":[]}
            {"t":0.400,"event":"linked","id":3,"op":"c","after":[4]}
            {"t":0.400,"event":"linked","id":1,"op":"a","after":[9]}
            {"t":0.400,"event":"state","id":4,"op":"d","from":null,"to":"ready"}
            {"t":0.500,"event":"state","id":3,"op":"c","from":"ready","to":"executing"}
            not json
            {"event":"summary","operations":2,"succeeded":2,"failed":0,"cancelled":0,"bytes":10}
            """
        var checker = EventStreamChecker(limit: 1)
        checker.check(stream)
        let text = checker.problems.joined(separator: "\n")
        #expect(text.contains("illegal waiting → executing"))
        #expect(text.contains("started before its dependency #1"))
        #expect(text.contains("2 executing, limit 1"))
        #expect(text.contains("progress went back"))
        #expect(text.contains("not a JSON event"))
        #expect(text.contains("started before its dependency #4"), "a dependency linked late counts too")
        #expect(text.contains("linked #1, which is not an unfinished operation"))
        #expect(text.contains("#1 linked to #9, which was never added"))
        #expect(text.contains("summary says succeeded 2, events say 1"))
    }

    @Test func countsOnlyBytesOperationsInTheSummarysBytes() {
        let stream = """
            {"t":0.000,"event":"added","id":1,"op":"photo","kind":"download","unit":"bytes","total":10,"after":[]}
            {"t":0.000,"event":"state","id":1,"op":"photo","from":null,"to":"ready"}
            {"t":0.000,"event":"added","id":2,"op":"thumb","kind":"process","unit":"items","total":8,"after":[]}
            {"t":0.000,"event":"state","id":2,"op":"thumb","from":null,"to":"ready"}
            {"t":0.000,"event":"added","id":3,"op":"old","kind":"download","total":5,"after":[]}
            {"t":0.000,"event":"state","id":3,"op":"old","from":null,"to":"ready"}
            {"t":0.100,"event":"state","id":1,"op":"photo","from":"ready","to":"executing"}
            {"t":0.100,"event":"state","id":2,"op":"thumb","from":"ready","to":"executing"}
            {"t":0.100,"event":"state","id":3,"op":"old","from":"ready","to":"executing"}
            {"t":0.200,"event":"progress","id":2,"op":"thumb","bytes":9,"total":8,"rate":1,"retries":0}
            {"t":0.400,"event":"state","id":1,"op":"photo","from":"executing","to":"finished","outcome":"succeeded"}
            {"t":0.400,"event":"state","id":2,"op":"thumb","from":"executing","to":"finished","outcome":"succeeded"}
            {"t":0.400,"event":"state","id":3,"op":"old","from":"executing","to":"finished","outcome":"succeeded"}
            {"event":"summary","operations":3,"succeeded":3,"failed":0,"cancelled":0,"bytes":15}
            """
        var checker = EventStreamChecker(limit: 3)
        checker.check(stream)
        #expect(checker.problems == ["line 10: #2 progress 9 outside 0…8"], "tiles are not bytes; no unit is bytes")
        var counted = EventStreamChecker(limit: 3)
        counted.check(stream.replacingOccurrences(of: #""bytes":15"#, with: #""bytes":23"#))
        #expect(counted.problems == ["line 10: #2 progress 9 outside 0…8", "summary says 23 bytes, events say 15"])
    }
}
