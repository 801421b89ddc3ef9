import Foundation
import OpsDashUI
import OpsMonitor

/// The local scenario run as a dashboard source: the monitor's snapshots, commands carried out
/// on the real queue, never refused.
final class LocalScenarioSource: DashboardSource {
    let run: ScenarioRun
    private var lastSecond = -1

    init(run: ScenarioRun) {
        self.run = run
    }

    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? {
        var picture = QueueSnapshot()
        return refresh(&picture, ifChangedSince: version) ? picture : nil
    }

    func refresh(_ picture: inout QueueSnapshot, ifChangedSince version: UInt64?) -> Bool {
        // A new picture when something changed, or once a second for the clocks.
        let second = Int(run.monitor.now.seconds)
        let changed = run.monitor.refresh(&picture, ifChangedSince: second == lastSecond ? version : nil)
        if changed { lastSecond = second }
        // Also when unchanged: the monitor may have handed back its own copy of the picture.
        picture = run.picture(picture)
        return changed
    }

    func perform(_ command: Command) -> String? {
        guard case .cancelAll = command else {
            Self.perform(command, on: run.monitor)
            return nil
        }
        // On a thread of its own: cancelling a million operations one by one takes seconds,
        // and the dashboard (and Ctrl-C) answers meanwhile. While a large scenario is still
        // being added, the adding stops too: nothing added afterwards runs (the summary counts
        // those as unfinished).
        Thread.detachNewThread { [run] in run.cancelAll() }
        return nil
    }

    /// Carries out what the dashboard asked for on the real queue.
    static func perform(_ command: Command, on monitor: QueueMonitor) {
        switch command {
        case .cancel(let id): monitor.cancel(id: id)
        case .cancelAll: monitor.cancelAll()
        case .cancelMany(let ids): for id in ids { monitor.cancel(id: id) }
        case .setSuspended(let suspended): monitor.setSuspended(suspended)
        case .setMaxConcurrentOperationCount(let limit): monitor.setMaxConcurrentOperationCount(limit)
        case .repaint, .quit: break  // the run loop's own
        }
    }
}
