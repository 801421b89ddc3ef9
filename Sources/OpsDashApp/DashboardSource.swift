import OpsDashLoop
import OpsDashUI
import OpsMonitor

/// What the dashboard shows and acts on: a local scenario run, an app attached over a socket,
/// a recording. Called on the dashboard's thread only; what a source learns on other threads
/// (its link state, a refused command) it sends to the loop's inbox.
protocol DashboardSource: AnyObject {
    /// A new picture if anything changed since `version` (or the shown clock moved), else nil.
    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot?
    /// Brings `picture` (the one the dashboard shows, handed over as its only holder) up to
    /// date if anything changed since `version` (true), else leaves it (false). A source whose
    /// store is shared with its pictures lets go of `picture` before changing the store.
    func refresh(_ picture: inout QueueSnapshot, ifChangedSince version: UInt64?) -> Bool
    /// Carries out `command` (or sends it on its way); returns why it was refused at once (one
    /// line for the message line), or nil. A refusal that comes later is sent to the inbox.
    func perform(_ command: Command) -> String?
    /// Takes `key` before the dashboard does (true: handled), e.g. a replay's transport keys.
    func handle(_ key: Key, in state: DashboardState) -> Bool
    /// The dashboard is about to run: from now on send it `.source` (target and link state for
    /// the header) and `.refused` actions through `inbox`.
    func start(sendingTo inbox: LoopInbox)
    /// The dashboard has ended: send nothing more.
    func stop()
}

extension DashboardSource {
    /// Replaces `picture` with `snapshot(ifChangedSince:)`'s, if any.
    func refresh(_ picture: inout QueueSnapshot, ifChangedSince version: UInt64?) -> Bool {
        guard let next = snapshot(ifChangedSince: version) else { return false }
        picture = next
        return true
    }

    /// Takes `key` before the dashboard does (true: handled); by default none.
    func handle(_ key: Key, in state: DashboardState) -> Bool { false }

    /// Sends nothing by default (a local run has no link state).
    func start(sendingTo inbox: LoopInbox) {}

    func stop() {}
}
