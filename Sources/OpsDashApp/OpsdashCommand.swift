import ArgumentParser
import OpsDashUI
import OpsMonitor
import OpsScenarios

/// `opsdash`'s command line: which scenario, how fast, and TUI or headless.
struct OpsdashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opsdash",
        abstract: "A live terminal dashboard for an OperationQueue running simulated transfers.",
        discussion: """
            Subcommands:
            \(subcommandsText)

            Built-in scenarios: opsdash --list-scenarios

            Keys in the dashboard:
            \(KeyReference.text)

            Exit codes: 0 all operations succeeded; 1 some failed or were cancelled; 2 usage, \
            scenario or terminal error; 3 headless output could not be written; 4 an --until \
            condition became true; \
            129/130/131/143 ended by SIGHUP (or the terminal closed)/SIGINT/SIGQUIT/SIGTERM; \
            141 headless output's reader went away (broken pipe).
            """,
        version: OpsdashVersion.current)

    /// The Subcommands section of `opsdash --help` and `opsdash help`: each subcommand in a
    /// few words (its own help: `opsdash help NAME`), lines short enough not to wrap.
    static let subcommandsText = """
          attach    watch (and steer) a queue a running app publishes
          replay    play a recording made with --record
          relay     carry a queue's connection over stdin/stdout (attach ssh:// runs it)
          help      this help, or a subcommand's (opsdash help attach)
        With no subcommand, opsdash runs the dashboard (--headless: the event stream).
        """

    @Option(name: .long, help: "A built-in scenario name or a path to a scenario JSON file.")
    var scenario: String = Scenarios.defaultName

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Maximum concurrent operations (\(concurrencyRange.lowerBound)...\(concurrencyRange.upperBound)); default: the scenario's."
    )
    var concurrency: Int?

    @Option(
        name: .customLong("seed"), parsing: .unconditional,
        help: ArgumentHelp(
            "Random seed, a whole number 0...18446744073709551615 (2^64-1); default: the scenario's.",
            valueName: "seed"))
    var seedText: String?

    /// `--seed` as a number (validated).
    var seed: UInt64? { seedText.flatMap { UInt64($0) } }

    @Option(
        name: .long, parsing: .unconditional,
        help: "Simulated time runs this many times faster than real time (0.01...10000).")
    var speed: Double = 1

    @Option(name: .long, parsing: .unconditional, help: "Dashboard frames per second (1...120).")
    var fps: Int = 20

    @Flag(name: .long, help: "No screen: write JSON Lines events to stdout, a summary last.")
    var headless = false

    @Option(
        name: .customLong("summary-every"), parsing: .unconditional,
        help: "With --headless: a one-line status on stderr every N seconds.")
    var summaryEvery: Double?

    @Option(name: .long, parsing: .unconditionalSingleValue, help: UntilOption.help)
    var until: [String] = []

    /// `--until` as conditions (validated).
    var untilConditions: [UntilCondition] { (try? UntilOption.conditions(until, headless: headless)) ?? [] }

    @Option(
        name: .customLong("metrics-port"), parsing: .unconditional,
        help: "Serve Prometheus metrics at http://127.0.0.1:N/metrics (0: a free port, printed on stderr).")
    var metricsPort: Int?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "With --headless --metrics-port: after the run, keep serving metrics for N seconds ('inf': until SIGINT, SIGTERM or SIGHUP; a signal always ends it).",
            valueName: "seconds"))
    var linger: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write a recording of the run to this file (JSON Lines with keyframes; replay it with 'opsdash replay FILE').",
            valueName: "file"))
    var record: String?

    @Flag(
        name: .long,
        help: "Let --record replace a file that already exists (without it, an existing file is refused).")
    var overwrite = false

    @Option(name: .customLong("history-window"), parsing: .unconditional, help: HistoryWindowOption.help)
    var historyWindow: String?

    @Flag(name: .customLong("list-scenarios"), help: "List the built-in scenarios and exit.")
    var listScenarios = false

    func validate() throws {
        if record?.isEmpty == true { throw ValidationError("--record needs a file name") }
        if overwrite, record == nil { throw ValidationError("--overwrite is only for --record") }
        // Read as text, so that -1 or 2^64 get the range like every other flag.
        if let seedText, UInt64(seedText) == nil {
            throw ValidationError("--seed must be a whole number between 0 and 18446744073709551615 (got \(seedText))")
        }
        if let concurrency, !concurrencyRange.contains(concurrency) {
            throw ValidationError(
                "--concurrency must be between \(concurrencyRange.lowerBound) and \(concurrencyRange.upperBound) (got \(concurrency))"
            )
        }
        if !(speed.isFinite && speed >= 0.01 && speed <= 10_000) {
            throw ValidationError("--speed must be between 0.01 and 10000 (got \(speed))")
        }
        if !(1...120).contains(fps) {
            throw ValidationError("--fps must be between 1 and 120 (got \(fps))")
        }
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be between 0 and 65535 (got \(metricsPort))")
        }
        if let linger {
            guard metricsPort != nil, headless else {
                throw ValidationError("--linger needs --headless and --metrics-port")
            }
            guard !linger.isNaN, linger >= 0 else {
                throw ValidationError("--linger must be a number of seconds, 0 or more (got \(linger))")
            }
        }
        _ = try UntilOption.conditions(until, headless: headless)
        if let historyWindow { _ = try HistoryWindowOption.seconds(historyWindow) }
        if let summaryEvery {
            guard headless else { throw ValidationError("--summary-every needs --headless") }
            guard summaryEvery.isFinite, summaryEvery > 0 else {
                throw ValidationError("--summary-every must be a positive number of seconds (got \(summaryEvery))")
            }
        }
    }
}
