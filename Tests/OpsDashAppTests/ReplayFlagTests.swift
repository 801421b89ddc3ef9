import ArgumentParser
import Testing

@testable import OpsDashApp

/// `opsdash replay`'s flags: every range with its message, and `--start-at`'s time forms.
struct ReplayFlagTests {
    static let startAtRange = "seconds, m:ss or h:mm:ss (mm and ss below 60) between 0 and 9999:59:59"

    static let refused: [([String], String)] = [
        (["--start-at", "1e17"], "--start-at must be \(startAtRange) (got 1e17)"),
        (["--start-at", "1e300"], "--start-at must be \(startAtRange) (got 1e300)"),
        (
            ["--start-at", "99999999999999999999:00"],
            "--start-at must be \(startAtRange) (got 99999999999999999999:00)"
        ),
        (["--start-at", "10000:00:00"], "--start-at must be \(startAtRange) (got 10000:00:00)"),
        (["--start-at", "9:99"], "--start-at must be \(startAtRange) (got 9:99)"),
        (["--start-at", "1:60:00"], "--start-at must be \(startAtRange) (got 1:60:00)"),
        (["--start-at", "-5"], "--start-at must be \(startAtRange) (got -5)"),
        (["--start-at", "1.5:00"], "--start-at must be \(startAtRange) (got 1.5:00)"),
        (["--start-at", "inf"], "--start-at must be \(startAtRange) (got inf)"),
        (["--idle-limit", "1e300"], "--idle-limit must be between 0.001 and 1000000 seconds (got 1e+300)"),
        (["--idle-limit", "-1"], "--idle-limit must be between 0.001 and 1000000 seconds (got -1.0)"),
        (["--idle-limit", "0"], "--idle-limit must be between 0.001 and 1000000 seconds (got 0.0)"),
        (["--idle-limit", "nan"], "--idle-limit must be between 0.001 and 1000000 seconds (got nan)"),
        (["--speed", "-1"], "--speed must be between 0.01 and 10000 (got -1.0)"),
        (["--fps", "0"], "--fps must be between 1 and 120 (got 0)"),
    ]

    @Test(arguments: 0..<refused.count)
    func outOfRangeFlagsAreRefusedWithTheirRange(index: Int) {
        let (arguments, message) = Self.refused[index]
        do {
            _ = try ReplayCommand.parse(["run.jsonl"] + arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(ReplayCommand.message(for: error) == message)
            #expect(ReplayCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func startAtTakesSecondsMinutesAndHours() throws {
        let cases: [(String, Duration)] = [
            ("0", .zero), ("90", .seconds(90)), ("12.5", .milliseconds(12_500)), ("1:30", .seconds(90)),
            ("90:00", .seconds(5400)), ("1:02:03.5", .milliseconds(3_723_500)), ("0:59.9994", .milliseconds(59_999)),
            ("9999:59:59", ReplayTime.maximumStart),
        ]
        for (text, expected) in cases {
            #expect(ReplayTime.parse(text) == expected, "\(text)")
            #expect(try ReplayCommand.parse(["run.jsonl", "--start-at", text]).startTime == expected)
        }
    }

    @Test func idleLimitEndsAreAcceptedAsDurations() throws {
        #expect(try ReplayCommand.parse(["f", "--idle-limit", "0.001"]).idleDuration == .milliseconds(1))
        #expect(try ReplayCommand.parse(["f", "--idle-limit", "1000000"]).idleDuration == .seconds(1_000_000))
    }

    @Test func timesInMessagesShowMilliseconds() {
        #expect(ReplayTime.text(.milliseconds(23_556)) == "0:23.556")
        #expect(ReplayTime.text(.milliseconds(3_723_005)) == "1:02:03.005")
    }
}
