import Testing

@testable import OpsMonitor

@Suite struct UntilConditionTests {
    @Test(arguments: [
        ("failed>0", [UntilCondition.count(.failed, .greater, 0)]),
        ("waiting>1000", [.count(.waiting, .greater, 1000)]),
        ("running >= 4", [.count(.running, .greaterOrEqual, 4)]),
        ("unfinished==0", [.count(.unfinished, .equal, 0)]),
        ("total<=1000000000", [.count(.total, .lessOrEqual, 1_000_000_000)]),
        ("succeeded<007", [.count(.succeeded, .less, 7)]),
        ("stalled>60s", [.stalled(seconds: 60, orEqual: false)]),
        ("stalled >= 2m", [.stalled(seconds: 120, orEqual: true)]),
        (" failed>0 , stalled>1s ", [.count(.failed, .greater, 0), .stalled(seconds: 1, orEqual: false)]),
        ("stalled>1440m", [.stalled(seconds: 86_400, orEqual: false)]),
    ])
    func goodConditionsParse(text: String, expected: [UntilCondition]) throws {
        #expect(try UntilCondition.parseList(text) == expected)
    }

    @Test func theDescriptionIsCanonicalAndParsesBack() throws {
        let conditions = try UntilCondition.parseList("cancelled >= 3, stalled > 5m, ready<2")
        #expect(conditions.map(\.description) == ["cancelled>=3", "stalled>300s", "ready<2"])
        for condition in conditions {
            #expect(try UntilCondition.parseList(condition.description) == [condition])
        }
    }

    @Test(arguments: [
        ("", "empty condition in ''"),
        ("failed>0,", "empty condition in 'failed>0,'"),
        (
            "fialed>0",
            "unknown count 'fialed' in 'fialed>0' (one of: waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total, stalled)"
        ),
        (
            "Failed>0",
            "unknown count 'Failed' in 'Failed>0' (one of: waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total, stalled)"
        ),
        (
            ">0",
            "no count name in '>0' (one of: waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total, stalled)"
        ),
        ("failed", "expected >, >=, <, <= or == after 'failed' in 'failed', found nothing"),
        ("failed=>0", "expected >, >=, <, <= or == after 'failed' in 'failed=>0', found '=>'"),
        ("failed>", "expected a whole number after 'failed>' in 'failed>'"),
        ("failed>-1", "expected a whole number after 'failed>' in 'failed>-1'"),
        ("failed>1.5", "unexpected '.5' after 'failed>1' in 'failed>1.5'"),
        ("failed>0 and more", "unexpected 'and more' after 'failed>0' in 'failed>0 and more'"),
        ("failed>1000000001", "number '1000000001' is too large (at most 1000000000) in 'failed>1000000001'"),
        (
            "failed>99999999999999999999999",
            "number '99999999999999999999999' is too large (at most 1000000000) in 'failed>99999999999999999999999'"
        ),
        ("stalled<60s", "stalled takes > or >=, not '<', in 'stalled<60s'"),
        ("stalled>60", "expected a duration such as 60s or 5m after 'stalled' in 'stalled>60'"),
        ("stalled>60h", "expected a duration such as 60s or 5m after 'stalled' in 'stalled>60h'"),
        ("stalled>0s", "duration in 'stalled>0s' must be 1s to 86400s (1 day)"),
        ("stalled>1441m", "duration in 'stalled>1441m' must be 1s to 86400s (1 day)"),
        (
            "failed\u{1B}[2J>0",
            "expected >, >=, <, <= or == after 'failed' in 'failed\\u{1B}[2J>0', found '\\u{1B}[2J>0'"
        ),
        (
            "fa\u{202E}iled>0",
            "unknown count 'fa' in 'fa\\u{202E}iled>0' (one of: waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total, stalled)"
        ),
        ("failed>0\n", "unexpected '\\n' after 'failed>0' in 'failed>0\\n'"),
    ])
    func badConditionsSayWhatAndWhereInOneLine(text: String, message: String) {
        #expect(throws: UntilConditionError(message)) { try UntilCondition.parseList(text) }
    }

    @Test func longAndManyAreRefusedBeforeParsing() {
        let long = String(repeating: "x", count: UntilCondition.maxTextLength + 1)
        #expect(throws: UntilConditionError("condition is too long (1025 bytes, at most 1024)")) {
            try UntilCondition.parseList(long)
        }
        let many = Array(repeating: "failed>0", count: UntilCondition.maxConditions + 1).joined(separator: ",")
        #expect(throws: UntilConditionError("too many conditions (17, at most 16)")) {
            try UntilCondition.parseList(many)
        }
    }

    @Test func aLongOffendingTextIsCut() throws {
        let name = String(repeating: "q", count: 100)
        let error = try #require(throws: UntilConditionError.self) { try UntilCondition.parseList(name + ">0") }
        #expect(error.problem.hasPrefix("unknown count '\(String(repeating: "q", count: 64))…' in '"))
        #expect(!error.problem.contains(String(repeating: "q", count: 65)))
    }
}
