import OpsDashUI
import OpsMonitor

/// Runs the dashboard until the operator quits, a stop signal arrives or the terminal goes
/// away, then closes `screen`.
///
/// Each frame: wait up to one frame interval for input and feed it to `reduce`, refresh the
/// picture and reduce it if it changed, take what other parts sent to `inbox` (a source's link
/// state, refused commands, notices) and reduce that, render, diff against what is on screen
/// and draw only the changed runs. Commands other than `.quit` go to `perform`. `intercept`
/// sees each key first and returns true to take it from the dashboard (a replay's transport
/// keys). A stop sent to `inbox` ends the loop within `stopPollMilliseconds`, whatever the
/// frame rate. All calls happen on the caller's thread.
///
/// `refresh` gets the picture the dashboard shows, as its only holder, and brings it up to
/// date (true) or leaves it (false: nothing changed). A source that lets go of it before
/// changing its store (`QueueMonitor.refresh`) changes the store's chunks in place instead of
/// copying them.
package func runDashboard(
    screen: some TerminalScreen,
    fps: Int,
    initial: DashboardState,
    inbox: LoopInbox,
    refresh: (inout QueueSnapshot) -> Bool,
    perform: (Command) -> Void,
    intercept: (Key, DashboardState) -> Bool = { _, _ in false }
) -> DashboardExit {
    runLoop(
        screen: screen, fps: fps, initial: initial, inbox: inbox, refresh: refresh, perform: perform,
        intercept: intercept, reducer: reduce, renderer: nil)
}

/// The longest the loop waits for input before looking at its inbox's stop again.
let stopPollMilliseconds = 100

/// `runDashboard` with the reducer and renderer injectable, so tests can script them.
func runLoop(
    screen: some TerminalScreen,
    fps: Int,
    initial: DashboardState,
    inbox: LoopInbox,
    refresh: (inout QueueSnapshot) -> Bool,
    perform: (Command) -> Void,
    intercept: (Key, DashboardState) -> Bool = { _, _ in false },
    reducer: (inout DashboardState, Action) -> [Command],
    renderer: ((DashboardState) -> CellBuffer)?
) -> DashboardExit {
    defer { screen.close() }
    let interval = 1000 / max(1, min(fps, 1000))
    var state = initial
    let frames = FrameRenderer(render: renderer)
    var dirty = true

    func apply(_ action: Action) -> Bool {
        dirty = true
        for command in reducer(&state, action) {
            if command == .quit { return true }
            if command == .repaint {
                // Ctrl-L: the terminal clears and every cell is sent again.
                frames.invalidate()
                screen.clearOnNextDraw()
                continue
            }
            perform(command)
        }
        return false
    }

    /// Hands the picture shown to `refresh` with no other holder (the state keeps its time for
    /// the reducer) and reduces the new one, if any; true to quit.
    func tick() -> Bool {
        var picture = state.snapshot
        state.snapshot = QueueSnapshot(time: picture.time)
        guard refresh(&picture) else {
            state.snapshot = picture
            return false
        }
        return apply(.tick(picture))
    }

    let size = screen.size
    if size.width != state.width || size.height != state.height {
        if apply(.resize(width: size.width, height: size.height)) { return .quit }
    }
    if tick() { return .quit }
    for sent in inbox.take(now: .now) where apply(sent) { return .quit }

    var remaining = 0
    var wait = 0
    /// The one place the loop waits: for input in slices of at most `stopPollMilliseconds`,
    /// looking for a stop in the inbox before each, until input arrives or the frame is due.
    func next() -> LoopEvent {
        while true {
            if let signal = inbox.stopSignal { return .stop(signal) }
            if let input = screen.readInput(timeoutMilliseconds: wait) { return .input(input) }
            remaining -= wait
            if remaining <= 0 || dirty { return .frameDue }
            wait = min(remaining, stopPollMilliseconds)
        }
    }

    while true {
        if dirty {
            let runs = frames.frame(for: state)
            if !runs.isEmpty { screen.draw(runs) }
            dirty = false
        }
        remaining = interval
        wait = min(remaining, stopPollMilliseconds)
        frame: while true {
            switch next() {
            case .stop(let signal): return .signal(signal)
            case .frameDue: break frame
            case .input(.closed): return .terminalClosed
            case .input(.key(let key)) where intercept(key, state):
                // A source's own keys (e.g. replay transport) come before the dashboard's.
                if tick() { return .quit }
                for sent in inbox.take(now: .now) where apply(sent) { return .quit }
                wait = 0
            case .input(.key(let key)):
                if apply(.key(key)) { return .quit }
                remaining = 0
                wait = 0  // drain whatever else is queued, then tick
            case .input(.resize(let width, let height)):
                if apply(.resize(width: width, height: height)) { return .quit }
                remaining = 0
                wait = 0
            }
        }
        if tick() { return .quit }
        for sent in inbox.take(now: .now) where apply(sent) { return .quit }
    }
}
