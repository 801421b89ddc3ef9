import OpsDashUI
import OpsMonitor

/// What the dashboard shows and acts on: a local scenario run, or an app attached over a socket.
/// Called on the dashboard's thread only.
protocol DashboardSource: AnyObject {
    /// A new picture if anything changed since `version` (or the shown clock moved), else nil.
    func snapshot(ifChangedSince version: UInt64?) -> QueueSnapshot?
    /// Carries out `command`; returns why it was refused (one line for the message line), or nil.
    func perform(_ command: Command) -> String?
    /// The target and link state for the header; nil for a local run.
    func status() -> SourceStatus?
    /// Takes `key` before the dashboard does (true: handled), e.g. a replay's transport keys.
    func handle(_ key: Key, in state: DashboardState) -> Bool
    /// Sends commands `perform` queued (paced for an app's line limit): after each command and
    /// once per frame. Returns a `.refused` action for each one refused.
    func sendWaitingCommands() -> [Action]
}

extension DashboardSource {
    /// Takes `key` before the dashboard does (true: handled); by default none.
    func handle(_ key: Key, in state: DashboardState) -> Bool { false }

    /// Sends commands held back; by default none are.
    func sendWaitingCommands() -> [Action] { [] }
}
