import ArgumentParser
import Foundation
import OpsScenarios

/// The `opsdash` program: parses arguments, loads the scenario and runs the dashboard or the
/// headless event stream. Every error is one line on stderr and a documented exit code.
public enum Opsdash {
    /// Runs `opsdash` with `arguments` (without the program name); returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        // First, before any other thread exists: every thread started later inherits the mask.
        StopSignals.blockInThisThread()
        // A reader that goes away is an EPIPE from write, handled where the write is.
        signal(SIGPIPE, SIG_IGN)
        // Likewise a file-size limit (`ulimit -f`): a write past it fails with EFBIG (a
        // recording stops, headless output ends with exit 3) instead of killing the run.
        signal(SIGXFSZ, SIG_IGN)
        let stdoutClosed = occupyIfClosed(1)
        if arguments.first == "attach" {
            return attach(Array(arguments.dropFirst()), stdoutClosed: stdoutClosed).rawValue
        }
        if arguments.first == "relay" { return relay(Array(arguments.dropFirst())).rawValue }
        if arguments.first == "replay" { return replay(Array(arguments.dropFirst()), stdoutClosed: stdoutClosed) }
        if arguments.first == "help" { return help(Array(arguments.dropFirst()), stdoutClosed: stdoutClosed).rawValue }
        let command: OpsdashCommand
        do {
            command = try OpsdashCommand.parse(arguments)
        } catch {
            let code = OpsdashCommand.exitCode(for: error)
            if code == .success {
                return StandardStreams.answer(
                    OpsdashCommand.fullMessage(for: error) + "\n", what: "the help", stdoutClosed: stdoutClosed
                ).rawValue
            }
            StandardStreams.error(
                "opsdash: "
                    + OpsdashCommand.message(for: error)
                    .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
            return ExitStatus.usage.rawValue
        }
        return run(command, signals: StopSignals(), stdoutClosed: stdoutClosed).rawValue
    }

    /// `opsdash help [SUBCOMMAND]`: the help of `opsdash` or of one subcommand, on stdout.
    static func help(_ arguments: [String], stdoutClosed: Bool = false) -> ExitStatus {
        let text: String
        switch arguments {
        case []: text = OpsdashCommand.helpMessage()
        case ["attach"]: text = AttachCommand.helpMessage()
        case ["replay"]: text = ReplayCommand.helpMessage()
        case ["relay"]: text = RelayCommand.helpMessage()
        case ["help"]: text = OpsdashCommand.helpMessage()
        default:
            StandardStreams.error(
                "opsdash: help: no subcommand '\(arguments.joined(separator: " "))' (opsdash help attach, opsdash help replay)"
            )
            return .usage
        }
        return StandardStreams.answer(text + "\n", what: "the help", stdoutClosed: stdoutClosed)
    }

    /// `arguments` parsed as `Command`, or how `opsdash` ends instead: its help on stdout (0),
    /// or a parse error as one line on stderr (2).
    private static func parse<Command: ParsableCommand>(
        _ type: Command.Type, _ arguments: [String], stdoutClosed: Bool
    ) -> Parsed<Command> {
        do {
            return .command(try Command.parse(arguments))
        } catch {
            if Command.exitCode(for: error) == .success {
                return .ended(
                    StandardStreams.answer(
                        Command.fullMessage(for: error) + "\n", what: "the help", stdoutClosed: stdoutClosed))
            }
            StandardStreams.error(
                "opsdash: "
                    + Command.message(for: error)
                    .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
            return .ended(.usage)
        }
    }

    /// A subcommand's parsed arguments, or how `opsdash` ended instead.
    private enum Parsed<Command> {
        case command(Command)
        case ended(ExitStatus)
    }

    /// `opsdash attach …`.
    static func attach(_ arguments: [String], stdoutClosed: Bool = false) -> ExitStatus {
        switch parse(AttachCommand.self, arguments, stdoutClosed: stdoutClosed) {
        case .command(let command): command.execute(signals: StopSignals(), stdoutClosed: stdoutClosed)
        case .ended(let status): status
        }
    }

    /// `opsdash relay …`: a stop signal ends it at once (128 + its number). Its standard output
    /// is the connection: only `--help` writes there.
    static func relay(_ arguments: [String]) -> ExitStatus {
        switch parse(RelayCommand.self, arguments, stdoutClosed: false) {
        case .command(let command):
            let signals = StopSignals()
            return withExtendedLifetime(signals) { command.execute() }
        case .ended(let status): return status
        }
    }

    /// `opsdash replay …`.
    static func replay(_ arguments: [String], stdoutClosed: Bool = false) -> Int32 {
        do {
            return try ReplayCommand.parse(arguments).execute(signals: StopSignals(), stdoutClosed: stdoutClosed)
                .rawValue
        } catch {
            if ReplayCommand.exitCode(for: error) == .success {
                return StandardStreams.answer(
                    ReplayCommand.fullMessage(for: error) + "\n", what: "the help", stdoutClosed: stdoutClosed
                ).rawValue
            }
            StandardStreams.error(
                "opsdash: "
                    + ReplayCommand.message(for: error)
                    .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
            return ExitStatus.usage.rawValue
        }
    }

    static func run(_ command: OpsdashCommand, signals: StopSignals, stdoutClosed: Bool = false) -> ExitStatus {
        if command.listScenarios {
            return StandardStreams.answer(
                ScenarioCatalog.listing(), what: "the scenario list", stdoutClosed: stdoutClosed)
        }
        if command.headless, !stdoutClosed {
            signals.beforeHandOver(
                HeadlessRunner.summaryBeforeStart(descriptor: 1, statusLine: command.summaryEvery != nil))
        }
        // A --record target that cannot be written is refused before a large scenario loads
        // (the file itself is created only once the run is ready).
        if let record = command.record,
            let problem = LocalRecorder.targetProblem(record, overwrite: command.overwrite)
        {
            StandardStreams.error("opsdash: \(problem)")
            return .usage
        }
        let scenario: ResolvedScenario
        do {
            scenario = try ScenarioCatalog.load(command.scenario, seed: command.seed)
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        if command.headless {
            if stdoutClosed { return HeadlessRunner.report(.writeFailed(EBADF)) }
            let run = ScenarioRun(
                scenario: scenario, concurrency: command.concurrency, speed: command.speed, recordEvents: true,
                limits: HistoryWindowOption.limits(command.historyWindow))
            guard let attached = RunAttachments(command: command, run: run, queueName: scenario.name) else {
                return .usage
            }
            var runner = HeadlessRunner(run: run, summaryEvery: command.summaryEvery, signals: signals)
            runner.recorder = attached.recorder
            runner.until = command.untilConditions
            let status = runner.execute()
            attached.recorder?.finish()
            if status.rawValue < 128 { attached.metrics?.linger(seconds: command.linger ?? 0, signals: runner.signals) }
            attached.metrics?.shutdown()
            return status
        }
        return DashboardRunner.run(command: command, scenario: scenario, signals: signals)
    }

    /// Whether descriptor `fd` was closed; if so it now reads /dev/null, so that no file opened
    /// later gets it and receives output meant for it.
    private static func occupyIfClosed(_ fd: Int32) -> Bool {
        guard fcntl(fd, F_GETFD) < 0, errno == EBADF else { return false }
        let null = open("/dev/null", O_RDWR)
        if null >= 0, null != fd {
            _ = dup2(null, fd)
            _ = close(null)
        }
        return true
    }
}
