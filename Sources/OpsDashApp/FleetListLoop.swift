import Foundation
import OpsDashLoop
import OpsDashTerminal
import OpsDashUI
@_spi(OpsDashInternals) import OpsKitViewer

/// What the fleet list's loop keeps between turns: the list's state, the last frame drawn, the
/// versions of the answers shown, and the ssh targets of the rows from other hosts.
struct FleetListLoop {
    private let screen: NcursesScreen
    private let watcher: FleetWatcher?
    private let hosts: FleetHosts
    private let host = ProcessInfo.processInfo.hostName
    private var state: FleetListState
    private var front = CellBuffer(width: 0, height: 0)
    private var shownVersion: (local: UInt64, hosts: UInt64)?
    private var targets: [String: SSHAddress] = [:]
    private var lastRows = ContinuousClock.now - .seconds(1)
    private var shownSecond = 0
    private var dirty = true

    init(screen: NcursesScreen, watcher: FleetWatcher?, hosts: FleetHosts) {
        self.screen = screen
        self.watcher = watcher
        self.hosts = hosts
        state = FleetListState(
            width: screen.size.width, height: screen.size.height, glyphs: screen.glyphs,
            keepDeparted: Int(FleetBook.defaultKeepDeparted))
    }

    /// At most every `FleetScreen.refreshMilliseconds`: the rows again when an answer came or a
    /// second passed ("last seen" moves); the list changes only when the rows did.
    mutating func refreshRows() {
        guard ContinuousClock.now - lastRows >= .milliseconds(FleetScreen.refreshMilliseconds) else { return }
        lastRows = .now
        let (entries, version) = watcher?.entries() ?? ([], 0)
        let hostsVersion = hosts.version
        let second = Int(Date().timeIntervalSince1970)
        guard version != shownVersion?.local || hostsVersion != shownVersion?.hosts || second != shownSecond else {
            return
        }
        shownVersion = (version, hostsVersion)
        shownSecond = second
        let now = Date().timeIntervalSince1970
        let remote = hosts.rows(now: now)
        targets = remote.targets
        let next = FleetScreen.rows(entries, host: host, now: now) + remote.rows
        if next != state.rows {
            _ = reduceFleet(&state, .rows(next))
            dirty = true
        }
    }

    /// Draws the list when something changed since the last frame (only the cells that differ).
    mutating func drawIfChanged() {
        guard dirty else { return }
        let next = FleetListView.frame(state)
        let runs = diff(from: front, to: next)
        if !runs.isEmpty { screen.draw(runs) }
        front = next
        dirty = false
    }

    /// A key or a resize, through the list's reducer; what it asks for (the terminal's end is
    /// the caller's: nothing here).
    mutating func handle(_ input: TerminalInput) -> [FleetCommand] {
        dirty = true
        switch input {
        case .closed: return []
        case .resize(let width, let height): return reduceFleet(&state, .resize(width: width, height: height))
        case .key(let key): return reduceFleet(&state, .key(key))
        }
    }

    /// Draws the whole screen again on the next frame.
    mutating func repaint() {
        screen.clearOnNextDraw()
        front = CellBuffer(width: 0, height: 0)
        dirty = true
    }

    /// Where the row `id` is reached: its ssh:// address for another host's app, its socket for
    /// this machine's; nil (with a notice) for another host's app whose name no address can hold.
    mutating func target(for id: String) -> RemoteTarget? {
        if id.hasPrefix("ssh "), targets[id] == nil {
            _ = reduceFleet(&state, .notice("cannot open \(id.dropFirst(4)) over ssh: its name"))
            return nil
        }
        return targets[id].map(RemoteTarget.ssh) ?? .unix(id)
    }

    /// After a dashboard opened from the list ended: the status to exit with (Q, a signal, the
    /// terminal gone), or nil to show the list again (with a notice when it could not open).
    mutating func cameBack(from target: RemoteTarget, ended: DashboardExit?) -> ExitStatus? {
        switch ended {
        case .signal(FleetDrillSource.quitSignal)?: return .success
        case .signal(let number)? where number != FleetDrillSource.backSignal: return ExitStatus.forSignal(number)
        case .terminalClosed?: return .hangup
        case .quit?: return .success
        default:
            if ended == nil { _ = reduceFleet(&state, .notice("cannot open \(target)")) }
            let size = screen.size
            _ = reduceFleet(&state, .resize(width: size.width, height: size.height))
            repaint()
            return nil
        }
    }
}
