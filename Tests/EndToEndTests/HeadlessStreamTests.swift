import Foundation
import Testing

@Suite struct HeadlessStreamTests {
    @Test func defaultScenarioStreamKeepsEveryRuleAndIsRepeatable() throws {
        let first = try runOpsdash(["--headless", "--speed", "200", "--seed", "3"])
        var checker = EventStreamChecker(limit: 4)
        checker.check(first.stdout)
        #expect(checker.problems == [])
        #expect(!checker.outcomes.isEmpty)
        #expect(first.status == (checker.outcomes.values.allSatisfy { $0 == "succeeded" } ? 0 : 1))
        let second = try runOpsdash(["--headless", "--speed", "200", "--seed", "3"])
        var again = EventStreamChecker(limit: 4)
        again.check(second.stdout)
        #expect(again.outcomes == checker.outcomes, "same seed, same outcomes")
    }

    @Test func interruptPrintsTheSummarySoFarAndExits130() throws {
        let result = try runOpsdash(["--headless", "--speed", "0.05"], signalAfterFirstLine: SIGINT)
        #expect(result.status == 130)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("\"event\":\"summary\""))
        #expect(last.contains("\"interrupted\":true"))
    }

    @Test func badFlagsExitTwoWithOneLine() throws {
        for arguments in [["--concurrency", "0"], ["--speed", "-1"], ["--bogus"], ["--fps", "500"], ["--summary-every", "1"]] {
            let result = try runOpsdash(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("opsdash: "), "\(arguments)")
        }
    }

    @Test func summaryEveryPrintsHumanStatusOnStderr() throws {
        let result = try runOpsdash(["--headless", "--speed", "20", "--summary-every", "0.2"])
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.hasPrefix("opsdash ") && $0.contains("done ") && $0.contains("/s") })
    }
}

@Suite struct EventStreamCheckerTests {
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
        #expect(text.contains("summary says succeeded 2, events say 1"))
    }
}
