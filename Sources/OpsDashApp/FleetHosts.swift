import Foundation
import OpsDashUI
import OpsKit
@_spi(OpsDashInternals) import OpsKitViewer

/// The other machines of the fleet list (the hosts file's, or the one of `opsdash attach
/// --list ssh://…`): a `HostWatcher` each (one `ssh … opsdash relay --list` per host), their
/// apps as rows and lines labelled with the host, and a host that lists none as one row with
/// why. A host address with a name lists only the apps that name picks (a queue, app/queue or
/// app, as `opsdash attach` picks).
final class FleetHosts: Sendable {
    /// How long `--list --headless` waits for the hosts' lists: `ssh`'s connect (at most 10 s,
    /// its `ConnectTimeout`) and a round of answers there.
    static let answerTimeout: Duration = SSHAttachFailure.firstAnswerTimeout + FleetLines.answerTimeout

    let watchers: [HostWatcher]
    private let changes = DispatchSemaphore(value: 0)

    init(
        _ hosts: [HostsFile.Host], command: SSHCommand = SSHCommand(), retry: Duration = .seconds(10),
        onChange: @escaping @Sendable () -> Void = {}
    ) {
        let changes = changes
        watchers = hosts.map { host in
            HostWatcher(host, command: command, retry: retry) {
                changes.signal()
                onChange()
            }
        }
    }

    /// Starts every host's `ssh`.
    func start() {
        for watcher in watchers { watcher.start() }
    }

    /// Ends every host's `ssh`, waiting for them together at most `timeout`.
    func stop(timeout: Duration = .seconds(5)) {
        for watcher in watchers { watcher.stop() }
        let deadline = DispatchTime.now() + .milliseconds(Int(timeout.components.seconds * 1_000))
        for watcher in watchers { watcher.waitUntilEnded(deadline: deadline) }
    }

    /// Waits until every host listed its apps with their answers, or has a problem, at most
    /// `timeout`.
    func waitForAnswers(timeout: Duration) {
        let deadline = DispatchTime.now() + .milliseconds(Int(timeout.components.seconds * 1_000))
        while watchers.contains(where: { Self.isWaiting($0.report.report) }) {
            guard changes.wait(timeout: deadline) == .success else { return }
        }
    }

    private static func isWaiting(_ report: HostWatcher.Report) -> Bool {
        report.problem == nil && !report.answered
    }

    /// A number that rises with every host's change.
    var version: UInt64 { watchers.reduce(0) { $0 &+ $1.report.version } }

    /// The apps `host` lists in `report` (only those its address names, when it names one).
    static func entries(of host: HostsFile.Host, _ report: HostWatcher.Report) -> [FleetEntry] {
        guard let name = host.address.name else { return report.entries }
        return report.entries.filter {
            $0.published.queue == name || $0.label == name || $0.published.app == name
        }
    }

    /// The `ssh://` target that attaches to `entry` on `host`: `/app/queue`, with `@PID` when
    /// `listed` (the host's apps) holds that app/queue more than once; nil when its name cannot
    /// be one (an app or queue name with characters an address may not hold).
    static func target(_ entry: FleetEntry, on host: HostsFile.Host, among listed: [FleetEntry]) -> SSHAddress? {
        var address = host.address
        address.name = nil
        var name = entry.label
        if listed.filter({ $0.label == entry.label }).count > 1 { name += "@\(entry.published.pid)" }
        return SSHAddress(parsing: "\(address)/\(name)")
    }

    /// One JSON line per app of every host (`FleetLines.line` with the host's label and the
    /// app's address), or one `unreachable` line for a host without a list; `timeout`: how long
    /// the hosts had (said for a host that never answered). Also how many hosts had no list.
    func lines(timeout: Duration) -> (text: String, unreachable: Int) {
        var text = ""
        var unreachable = 0
        for watcher in watchers {
            let host = watcher.host
            let report = watcher.report.report
            if !report.listed {
                let why = report.problem ?? "no list from the host in \(timeout.components.seconds) s"
                text += FleetLines.unreachable(host: host.label, address: host.address.description, error: why)
                unreachable += 1
                continue
            }
            for entry in Self.entries(of: host, report) {
                let address = Self.target(entry, on: host, among: report.entries)?.description
                text += FleetLines.line(entry, host: host.label, address: address)
            }
        }
        return (text, unreachable)
    }

    /// The rows of every host at wall time `now`, and the `ssh://` target of each app row by
    /// its id (a host's problem or wait is one row without a target).
    func rows(now: Double) -> (rows: [FleetRow], targets: [String: SSHAddress]) {
        var rows: [FleetRow] = []
        var targets: [String: SSHAddress] = [:]
        for watcher in watchers {
            let host = watcher.host
            let report = watcher.report.report
            guard report.listed else {
                rows.append(
                    FleetRow(
                        id: "ssh \(host.label)", app: "", queue: "", pid: 0, host: host.label,
                        note: report.problem ?? "connecting (\(host.address))"))
                continue
            }
            for entry in Self.entries(of: host, report) {
                var row = FleetScreen.row(entry, host: host.label, now: now)
                row.id = "ssh \(host.label) \(entry.published.socket)"
                targets[row.id] = Self.target(entry, on: host, among: report.entries)
                rows.append(row)
            }
        }
        return (rows, targets)
    }
}
