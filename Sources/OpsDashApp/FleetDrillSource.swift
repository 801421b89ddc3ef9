import OpsDashLoop
import OpsDashUI
import OpsMonitor

/// An app's dashboard opened from the fleet list: the app's `RemoteSource`, plus Esc with
/// nothing left to close ending the dashboard to go back to the list (as the loop's stop with
/// `backSignal`).
final class FleetDrillSource: DashboardSource {
    /// The stop "signal" that means back to the list (no real signal is 0).
    static let backSignal: Int32 = 0

    private let source: RemoteSource
    private var inbox: LoopInbox?

    init(_ source: RemoteSource) {
        self.source = source
    }

    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? { source.snapshot(ifChangedSince: version) }
    func perform(_ command: Command) -> String? { source.perform(command) }

    func handle(_ key: Key, in state: DashboardState) -> Bool {
        guard key == .escape, state.escapeClosesNothing, let inbox else { return source.handle(key, in: state) }
        inbox.stop(signal: Self.backSignal)
        return true
    }

    func start(sendingTo inbox: LoopInbox) {
        self.inbox = inbox
        source.start(sendingTo: inbox)
    }

    func stop() { source.stop() }
}
