import Foundation
import OpsDashTerminal
import OpsDashUI
import OpsMonitor
import OpsScenarios

/// `opsdash` without `--headless`: the live dashboard over a running scenario.
enum DashboardRunner {
    /// Opens the screen, runs the scenario and the dashboard loop until the operator quits or a
    /// stop signal arrives, restores the terminal and returns the exit status.
    static func run(command: OpsdashCommand, scenario: ResolvedScenario) -> ExitStatus {
        SignalTrap.installStopHandlers()
        let run = ScenarioRun(
            scenario: scenario, concurrency: command.concurrency, speed: command.speed, recordEvents: false)
        let metrics: MetricsExport?
        do {
            metrics = try command.metricsPort.map { try MetricsExport(port: $0, monitor: run.monitor, queueName: scenario.name) }
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        defer { metrics?.shutdown() }
        let logPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("opsdash-\(getpid()).log").path
        let screen: NcursesScreen
        do {
            screen = try NcursesScreen(logPath: logPath)
        } catch {
            StandardStreams.error("\(error)")  // already names opsdash and the problem
            return .usage
        }
        run.start()
        let size = screen.size
        var version = UInt64.max
        var lastSecond = -1
        let exit = runDashboard(
            screen: screen, fps: command.fps,
            initial: DashboardState(width: size.width, height: size.height, glyphs: screen.glyphs),
            snapshot: {
                // A new picture when something changed, or once a second for the clocks.
                let second = Int(run.monitor.now.seconds)
                let next = second != lastSecond
                    ? run.monitor.snapshot() : run.monitor.snapshot(ifChangedSince: version)
                guard let next else { return nil }
                version = next.version
                lastSecond = second
                return next
            },
            perform: { command in perform(command, on: run.monitor) })
        removeIfEmpty(logPath)
        let counts = run.monitor.snapshot().counts
        StandardStreams.error(
            "opsdash: \(counts.total) operations: \(counts.succeeded) succeeded, \(counts.failed) failed, "
                + "\(counts.cancelled) cancelled, \(counts.total - counts.finished) unfinished")
        if case .signal(let number) = exit { return ExitStatus.forSignal(number) }
        return ExitStatus.forCounts(
            failed: counts.failed, cancelled: counts.cancelled, unfinished: counts.total - counts.finished)
    }

    /// Carries out what the dashboard asked for on the real queue.
    static func perform(_ command: Command, on monitor: QueueMonitor) {
        switch command {
        case .cancel(let id): monitor.cancel(id: id)
        case .cancelAll: monitor.cancelAll()
        case .setSuspended(let suspended): monitor.setSuspended(suspended)
        case .setMaxConcurrentOperationCount(let limit): monitor.setMaxConcurrentOperationCount(limit)
        case .quit: break
        }
    }

    private static func removeIfEmpty(_ path: String) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size == 0 { try? FileManager.default.removeItem(atPath: path) }
    }
}
