import OpsDashUI
import OpsMonitor

/// Why the dashboard loop ended.
public enum DashboardExit: Sendable, Equatable {
    /// The operator quit (a `.quit` command).
    case quit
    /// A stop signal (SIGINT, SIGTERM or SIGHUP) arrived.
    case signal(Int32)

    /// The conventional exit status for a signal exit (128 + signal); nil for `.quit`, whose
    /// status depends on how the work went.
    public var signalExitCode: Int32? {
        if case .signal(let number) = self { return 128 + number }
        return nil
    }
}

/// Runs the dashboard until the operator quits or a stop signal arrives, then closes `screen`.
///
/// Each frame: wait up to one frame interval for input and feed it to `reduce`, fetch a
/// snapshot (`snapshot` returns nil when nothing changed) and reduce it, render, diff against
/// what is on screen and draw only the changed runs. Commands other than `.quit` go to
/// `perform`. `updates` hands over other actions each frame (a source's link state, refused
/// commands). `intercept` sees each key first and returns true to take it from the dashboard
/// (a replay's transport keys). All calls happen on the caller's thread.
public func runDashboard(
    screen: some TerminalScreen,
    fps: Int,
    initial: DashboardState,
    snapshot: () -> QueueSnapshot?,
    perform: (Command) -> Void,
    updates: () -> [Action] = { [] },
    intercept: (Key, DashboardState) -> Bool = { _, _ in false },
    stopSignal: () -> Int32? = SignalTrap.pendingStop
) -> DashboardExit {
    runLoop(
        screen: screen, fps: fps, initial: initial, snapshot: snapshot, perform: perform,
        updates: updates, intercept: intercept, stopSignal: stopSignal, reducer: reduce, renderer: render)
}

/// `runDashboard` with the reducer and renderer injectable, so tests can script them.
func runLoop(
    screen: some TerminalScreen,
    fps: Int,
    initial: DashboardState,
    snapshot: () -> QueueSnapshot?,
    perform: (Command) -> Void,
    updates: () -> [Action] = { [] },
    intercept: (Key, DashboardState) -> Bool = { _, _ in false },
    stopSignal: () -> Int32?,
    reducer: (inout DashboardState, Action) -> [Command],
    renderer: (DashboardState) -> CellBuffer
) -> DashboardExit {
    defer { screen.close() }
    let interval = 1000 / max(1, min(fps, 1000))
    var state = initial
    var front = CellBuffer(width: 0, height: 0)
    var dirty = true

    func apply(_ action: Action) -> Bool {
        dirty = true
        for command in reducer(&state, action) {
            if command == .quit { return true }
            perform(command)
        }
        return false
    }

    let size = screen.size
    if size.width != state.width || size.height != state.height {
        if apply(.resize(width: size.width, height: size.height)) { return .quit }
    }
    if let first = snapshot(), apply(.tick(first)) { return .quit }
    for update in updates() where apply(update) { return .quit }

    while true {
        if let signal = stopSignal() { return .signal(signal) }
        if dirty {
            let back = renderer(state)
            let runs = diff(from: front, to: back)
            if !runs.isEmpty { screen.draw(runs) }
            front = back
            dirty = false
        }
        var wait = interval
        while let input = screen.readInput(timeoutMilliseconds: wait) {
            let action: Action
            switch input {
            case .key(let key):
                // A source's own keys (e.g. replay transport) come before the dashboard's.
                if intercept(key, state) {
                    if let next = snapshot(), apply(.tick(next)) { return .quit }
                    for update in updates() where apply(update) { return .quit }
                    wait = 0
                    continue
                }
                action = .key(key)
            case .resize(let width, let height): action = .resize(width: width, height: height)
            }
            if apply(action) { return .quit }
            wait = 0  // drain whatever else is queued, then tick
        }
        if let signal = stopSignal() { return .signal(signal) }
        if let next = snapshot(), apply(.tick(next)) { return .quit }
        for update in updates() where apply(update) { return .quit }
    }
}
