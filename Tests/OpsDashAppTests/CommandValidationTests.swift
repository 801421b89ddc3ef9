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
    ]

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
