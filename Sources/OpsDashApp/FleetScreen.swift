import Foundation
import OpsDashLoop
import OpsDashTerminal
import OpsDashUI
import OpsMonitor
@_spi(OpsDashInternals) import OpsKitViewer
import OpsWire

/// `opsdash attach` with several published queues (or hosts in the hosts file): the live fleet
/// list (one row per queue, from a `FleetWatcher`'s summaries and each host's `opsdash relay
/// --list`), Enter opening an app's dashboard on the same screen (over `ssh` for another
/// host's) and Esc there coming back.
enum FleetScreen {
    /// How often the rows are rebuilt when no answer came (the "last seen" column moves).
    static let refreshMilliseconds = 250

    /// Runs the list until the operator quits, a stop signal arrives or the terminal goes away:
    /// the queues published in `directory` (none when nil) and those of `hosts`; a dashboard
    /// opened from it keeps its picture within `limits` (`--history-window`).
    static func run(
        directory: String?, hosts: [HostsFile.Host], role: RemoteRole?, sharedMemory: Bool, fps: Int,
        signals: StopSignals, limits: MonitorStore.Limits = .init()
    ) -> ExitStatus {
        signals.handOver()
        let screen: NcursesScreen
        do {
            screen = try NcursesScreen(logDirectory: FileManager.default.temporaryDirectory.path)
        } catch {
            StandardStreams.error("opsdash: \(error)")
            return .usage
        }
        let kept = KeptScreen(screen)
        let watcher = directory.map { FleetWatcher(directory: $0) }
        watcher?.start()
        let remote = FleetHosts(hosts)
        remote.start()
        let exit = showList(
            watcher: watcher, hosts: remote, screen: kept, role: role, sharedMemory: sharedMemory, fps: fps,
            signals: signals, limits: limits)
        watcher?.stop()
        remote.stop()
        screen.close()
        if let kept = screen.strayOutputPath {
            StandardStreams.error("opsdash: output written while the screen was up is in \(kept)")
        }
        return exit
    }

    /// The list's loop on `kept`'s screen; the exit status when it ends.
    private static func showList(
        watcher: FleetWatcher?, hosts: FleetHosts, screen kept: KeptScreen, role: RemoteRole?, sharedMemory: Bool,
        fps: Int,
        signals: StopSignals, limits: MonitorStore.Limits
    ) -> ExitStatus {
        var loop = FleetListLoop(screen: kept.screen, watcher: watcher, hosts: hosts)
        while true {
            if let signal = signals.received { return ExitStatus.forSignal(signal) }
            loop.refreshRows()
            loop.drawIfChanged()
            guard let input = kept.screen.readInput(timeoutMilliseconds: 100) else { continue }
            if case .closed = input { return .hangup }
            for command in loop.handle(input) {
                switch command {
                case .quit: return .success
                case .repaint: loop.repaint()
                case .open(let id):
                    guard let target = loop.target(for: id) else { continue }
                    let ended = drill(
                        into: target, role: role, sharedMemory: sharedMemory, fps: fps, signals: signals,
                        limits: limits, on: kept)
                    if let exit = loop.cameBack(from: target, ended: ended) { return exit }
                }
            }
        }
    }

    /// The app at `target`'s dashboard on the list's screen, until `q` or Esc comes back (a stop
    /// with `FleetDrillSource.backSignal`), `Q` quits (`quitSignal`), or a signal; nil when it
    /// could not start.
    private static func drill(
        into target: RemoteTarget, role: RemoteRole?, sharedMemory: Bool, fps: Int, signals: StopSignals,
        limits: MonitorStore.Limits, on screen: KeptScreen
    ) -> DashboardExit? {
        let viewer = RemoteViewer(
            target: target, role: role, token: nil, reconnect: true, limits: limits, sharedMemory: sharedMemory,
            resolve: nil)
        if viewer.start() != nil { return nil }
        let source = FleetDrillSource(RemoteSource(viewer: viewer))
        let exit = DashboardRunner.show(source, fps: fps, signals: signals, on: screen, fromFleet: true)
        viewer.stop()
        return exit
    }

    /// The list's rows for `entries` at wall time `now` (seconds since 1970).
    static func rows(_ entries: [FleetEntry], host: String, now: Double) -> [FleetRow] {
        entries.map { row($0, host: host, now: now) }
    }

    /// One entry's row (its id: the socket path) at wall time `now`.
    static func row(_ entry: FleetEntry, host: String, now: Double) -> FleetRow {
        FleetRow(
            id: entry.published.socket, app: entry.published.app, queue: entry.published.queue,
            pid: entry.published.pid, host: host, running: entry.counts?.executing,
            waiting: entry.counts.map { $0.waiting + $0.ready }, failed: entry.counts?.failed,
            throughput: entry.throughput, viewers: entry.viewers, control: entry.controlAllowed,
            lastSeenAgo: entry.lastSeen.map { (now - $0).rounded(.down) }, departed: entry.presence == .departed)
    }
}
