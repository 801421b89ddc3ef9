import OpsDashLoop
import OpsDashUI
import OpsMonitor

/// An app's dashboard opened from the fleet list: the app's `RemoteSource`, plus `q`, and Esc
/// with nothing left to close, ending the dashboard to go back to the list (as the loop's stop
/// with `backSignal`), and `Q` ending it to quit opsdash (`quitSignal`). While a question or
/// an edit is open, the keys go to it.
final class FleetDrillSource: DashboardSource {
    /// The stop "signal" that means back to the list (no real signal is 0).
    static let backSignal: Int32 = 0
    /// The stop "signal" that means quit opsdash (no real signal is negative).
    static let quitSignal: Int32 = -1

    private let source: RemoteSource
    private var inbox: LoopInbox?

    init(_ source: RemoteSource) {
        self.source = source
    }

    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot? { source.snapshot(ifChangedSince: version) }
    func perform(_ command: Command) -> String? { source.perform(command) }

    func handle(_ key: Key, in state: DashboardState) -> Bool {
        let answering = state.prompt != nil || state.isEditingFilter || state.isEditingSearch
        guard let inbox, !answering else { return source.handle(key, in: state) }
        switch key {
        case .character("Q"): inbox.stop(signal: Self.quitSignal)
        case .character("q"): inbox.stop(signal: Self.backSignal)
        case .escape where state.escapeClosesNothing: inbox.stop(signal: Self.backSignal)
        default: return source.handle(key, in: state)
        }
        return true
    }

    func start(sendingTo inbox: LoopInbox) {
        self.inbox = inbox
        source.start(sendingTo: inbox)
    }

    func stop() { source.stop() }
}
