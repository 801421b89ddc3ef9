import Foundation
import OpsDashLoop
import OpsDashTerminal
import OpsDashUI
import OpsKit
import OpsMonitor
import OpsScenarios

/// The live dashboard over a `DashboardSource`: `opsdash` without `--headless` (a local
/// scenario) and `opsdash attach` (an app's published queue).
enum DashboardRunner {
    /// `opsdash` without `--headless`: opens the screen, runs the scenario and the dashboard
    /// until the operator quits, a stop signal arrives or the terminal goes away, restores the
    /// terminal and returns the exit status.
    static func run(command: OpsdashCommand, scenario: ResolvedScenario, signals: StopSignals) -> ExitStatus {
        let run = ScenarioRun(
            scenario: scenario, concurrency: command.concurrency, speed: command.speed,
            recordEvents: command.record != nil, limits: HistoryWindowOption.limits(command.historyWindow))
        guard let attached = RunAttachments(command: command, run: run, queueName: scenario.name) else { return .usage }
        attached.recorder?.startPumping()
        defer {
            attached.recorder?.finish()
            attached.metrics?.shutdown()
        }
        let source = LocalScenarioSource(run: run)
        let exit = show(
            source, fps: command.fps, speed: command.speed, title: scenario.name, signals: signals,
            start: run.startAdding)
        run.stopAdding()
        guard let exit else { return .usage }
        let counts = run.monitor.snapshot().counts
        // Quit while a large scenario was still being added: the rest count as unfinished.
        let notAdded = run.notAddedCount
        StandardStreams.error("opsdash: \(summary(counts, notAdded: notAdded))")
        switch exit {
        case .signal(let number): return ExitStatus.forSignal(number)
        case .terminalClosed: return .hangup
        case .quit: break
        }
        return ExitStatus.forCounts(
            failed: counts.failed, cancelled: counts.cancelled,
            unfinished: counts.total - counts.finished + notAdded)
    }

    /// The one-line summary said on stderr when the dashboard closes: "21 operations: 18
    /// succeeded, 1 failed, 2 cancelled, 0 unfinished"; `notAdded` operations never reached
    /// the queue and count as unfinished.
    static func summary(_ counts: StateCounts, notAdded: Int = 0) -> String {
        "\(counts.total + notAdded) operations: \(counts.succeeded) succeeded, \(counts.failed) failed, "
            + "\(counts.cancelled) cancelled, \(counts.total - counts.finished + notAdded) unfinished"
    }

    /// The dashboard before the first picture: a local run's `title` (its scenario) in the header.
    static func initialState(width: Int, height: Int, glyphs: GlyphSet, speed: Double, title: String?) -> DashboardState
    {
        var state = DashboardState(width: width, height: height, glyphs: glyphs, speed: speed)
        state.title = title
        return state
    }

    /// Opens the screen, calls `start`, and runs the dashboard over `source` until the operator
    /// quits or a stop signal arrives; nil when the screen could not be opened (the reason is
    /// already on stderr).
    ///
    /// `start` starts adding a scenario's operations on another thread (seconds for a million
    /// of them): keys and signals are answered meanwhile, and the table fills as they are added.
    ///
    /// `kept`: a screen already open (the fleet list's), drawn on instead of opening one; it
    /// stays open when the dashboard ends. `fromFleet`: opened from the fleet list (`q` says
    /// "back").
    static func show(
        _ source: some DashboardSource, fps: Int, speed: Double = 1, title: String? = nil, signals: StopSignals,
        on kept: KeptScreen? = nil, fromFleet: Bool = false, start: @escaping @Sendable () -> Void = {}
    ) -> DashboardExit? {
        signals.handOver()
        let screen: any TerminalScreen
        var opened: NcursesScreen?
        if let kept {
            screen = kept
        } else {
            do {
                opened = try NcursesScreen(logDirectory: FileManager.default.temporaryDirectory.path)
            } catch {
                StandardStreams.error("opsdash: \(error)")
                return nil
            }
            guard let opened else { return nil }
            screen = opened
        }
        let inbox = LoopInbox()
        signals.forward(to: inbox)
        DashboardNotices.screenOpened(inbox)
        source.start(sendingTo: inbox)
        start()
        let size = screen.size
        var version: UInt64?
        var initial = initialState(
            width: size.width, height: size.height, glyphs: screen.glyphs, speed: speed, title: title)
        initial.openedFromFleet = fromFleet
        let exit = runDashboard(
            screen: screen, fps: fps, initial: initial,
            inbox: inbox,
            refresh: { picture in
                guard source.refresh(&picture, ifChangedSince: version) else { return false }
                version = picture.version
                return true
            },
            perform: { command in
                if let refusal = source.perform(command) { inbox.send(.refused(refusal, command: command)) }
            },
            intercept: { key, state in source.handle(key, in: state) })
        source.stop()
        DashboardNotices.screenClosed()
        if let kept = opened?.strayOutputPath {
            StandardStreams.error("opsdash: output written while the screen was up is in \(kept)")
        }
        return exit
    }
}
