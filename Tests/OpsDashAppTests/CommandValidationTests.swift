import ArgumentParser
import Testing

@testable import OpsDashApp

/// `OpsdashCommand.validate()`: every range the README's flag table states, with its message.
struct CommandValidationTests {
    static let refused: [([String], String)] = [
        (["--concurrency", "0"], "--concurrency must be between 1 and 1024 (got 0)"),
        (["--concurrency", "1025"], "--concurrency must be between 1 and 1024 (got 1025)"),
        (["--speed", "0.001"], "--speed must be between 0.01 and 10000 (got 0.001)"),
        (["--speed", "10001"], "--speed must be between 0.01 and 10000 (got 10001.0)"),
        (["--speed", "nan"], "--speed must be between 0.01 and 10000 (got nan)"),
        (["--speed", "inf"], "--speed must be between 0.01 and 10000 (got inf)"),
        (["--fps", "0"], "--fps must be between 1 and 120 (got 0)"),
        (["--fps", "121"], "--fps must be between 1 and 120 (got 121)"),
        (["--summary-every", "1"], "--summary-every needs --headless"),
        (["--headless", "--summary-every", "0"], "--summary-every must be a positive number of seconds (got 0.0)"),
        (["--headless", "--summary-every=-1"], "--summary-every must be a positive number of seconds (got -1.0)"),
        (["--record", ""], "--record needs a file name"),
        (["--overwrite"], "--overwrite is only for --record"),
        // A negative number is the flag's value, not another flag ("Missing value for '--speed'").
        (["--speed", "-1"], "--speed must be between 0.01 and 10000 (got -1.0)"),
        (["--concurrency", "-2"], "--concurrency must be between 1 and 1024 (got -2)"),
        (["--fps", "-5"], "--fps must be between 1 and 120 (got -5)"),
        (["--metrics-port", "-1"], "--metrics-port must be between 0 and 65535 (got -1)"),
        (["--headless", "--summary-every", "-1"], "--summary-every must be a positive number of seconds (got -1.0)"),
        (["--seed", "-1"], "--seed must be a whole number between 0 and 18446744073709551615 (got -1)"),
        (
            ["--seed", "18446744073709551616"],
            "--seed must be a whole number between 0 and 18446744073709551615 (got 18446744073709551616)"
        ),
        (["--seed", "abc"], "--seed must be a whole number between 0 and 18446744073709551615 (got abc)"),
        (["--history-window", "1s"], historyWindowRefusal("1s")),
        (["--history-window", "25h"], historyWindowRefusal("25h")),
        (["--history-window", "86401"], historyWindowRefusal("86401")),
        (["--history-window", "-5m"], historyWindowRefusal("-5m")),
        (["--history-window", "15x"], historyWindowRefusal("15x")),
        (["--history-window", "m"], historyWindowRefusal("m")),
        (["--history-window", ""], historyWindowRefusal("")),
        (["--history-window", "9999999999999999999h"], historyWindowRefusal("9999999999999999999h")),
    ]

    static func historyWindowRefusal(_ text: String) -> String {
        "--history-window must be a duration from 2s to 24h, e.g. 90s, 15m or 2h (got \(text))"
    }

    @Test func historyWindowTakesSecondsMinutesAndHours() throws {
        #expect(try HistoryWindowOption.seconds("2") == 2)
        #expect(try HistoryWindowOption.seconds("90s") == 90)
        #expect(try HistoryWindowOption.seconds("15m") == 900)
        #expect(try HistoryWindowOption.seconds("24h") == 86_400)
        #expect(HistoryWindowOption.limits("2h").historySeconds == 7_200)
        #expect(HistoryWindowOption.limits(nil).historySeconds == 900)
        let attach = try AttachCommand.parse(["--history-window", "1h"])
        #expect(attach.historyWindow == "1h")
        #expect(throws: (any Error).self) { try AttachCommand.parse(["--history-window", "0s"]) }
    }

    @Test(arguments: 0..<refused.count)
    func outOfRangeFlagsAreRefusedWithTheirRange(index: Int) {
        let (arguments, message) = Self.refused[index]
        do {
            _ = try OpsdashCommand.parse(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(OpsdashCommand.message(for: error) == message)
            #expect(OpsdashCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func rangeEndsAreAccepted() throws {
        let low = try OpsdashCommand.parse(["--concurrency", "1", "--speed", "0.01", "--fps", "1", "--seed", "0"])
        #expect(low.concurrency == 1 && low.speed == 0.01 && low.fps == 1 && low.seed == 0)
        #expect(try OpsdashCommand.parse(["--seed", "18446744073709551615"]).seed == .max)
        let high = try OpsdashCommand.parse([
            "--concurrency", "1024", "--speed", "10000", "--fps", "120", "--headless", "--summary-every", "0.5",
        ])
        #expect(high.concurrency == 1024 && high.speed == 10_000 && high.fps == 120 && high.summaryEvery == 0.5)
    }

    @Test func defaultsAreTheDocumentedOnes() throws {
        let command = try OpsdashCommand.parse([])
        #expect(command.scenario == "mixed")
        #expect(command.concurrency == nil && command.seed == nil)
        #expect(command.speed == 1 && command.fps == 20)
        #expect(!command.headless && !command.listScenarios && command.summaryEvery == nil)
    }
}
