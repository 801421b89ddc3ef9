import ArgumentParser
import Foundation
import OpsScenarios

/// The `opsdash` program: parses arguments, loads the scenario and runs the dashboard or the
/// headless event stream. Every error is one line on stderr and a documented exit code.
public enum Opsdash {
    /// Runs `opsdash` with `arguments` (without the program name); returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        setenv("SWIFT_BACKTRACE", "interactive=no", 0)
        signal(SIGPIPE, SIG_IGN)
        if arguments.first == "replay" { return replay(Array(arguments.dropFirst())) }
        let command: OpsdashCommand
        do {
            command = try OpsdashCommand.parse(arguments)
        } catch {
            let code = OpsdashCommand.exitCode(for: error)
            if code == .success {
                StandardStreams.write(OpsdashCommand.fullMessage(for: error) + "\n")
                return ExitStatus.success.rawValue
            }
            StandardStreams.error("opsdash: " + OpsdashCommand.message(for: error)
                .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
            return ExitStatus.usage.rawValue
        }
        return run(command).rawValue
    }

    /// `opsdash replay …`.
    static func replay(_ arguments: [String]) -> Int32 {
        do {
            return try ReplayCommand.parse(arguments).execute().rawValue
        } catch {
            if ReplayCommand.exitCode(for: error) == .success {
                StandardStreams.write(ReplayCommand.fullMessage(for: error) + "\n")
                return ExitStatus.success.rawValue
            }
            StandardStreams.error("opsdash: " + ReplayCommand.message(for: error)
                .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces))
            return ExitStatus.usage.rawValue
        }
    }

    static func run(_ command: OpsdashCommand) -> ExitStatus {
        if command.listScenarios {
            StandardStreams.write(ScenarioCatalog.listing())
            return .success
        }
        let scenario: ResolvedScenario
        do {
            scenario = try ScenarioCatalog.load(command.scenario, seed: command.seed)
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        if command.headless {
            let run = ScenarioRun(
                scenario: scenario, concurrency: command.concurrency, speed: command.speed, recordEvents: true)
            guard let attached = RunAttachments(command: command, run: run, queueName: scenario.name) else { return .usage }
            var runner = HeadlessRunner(run: run, summaryEvery: command.summaryEvery)
            runner.recorder = attached.recorder
            let status = runner.execute()
            attached.recorder?.finish()
            if status.rawValue < 128 { attached.metrics?.linger(seconds: command.linger ?? 0, signals: runner.signals) }
            attached.metrics?.shutdown()
            return status
        }
        return DashboardRunner.run(command: command, scenario: scenario)
    }
}
