import CNcurses

/// Signal handling for the dashboard. The C handlers and their state live in the shim; every
/// call into them is in this file so there is one copy of that state.
public enum SignalTrap {
    /// Installs SIGINT/SIGTERM/SIGHUP handlers that only record the signal; the run loop polls.
    /// Must run before the screen opens so ncurses doesn't install its own.
    public static func installStopHandlers() {
        _ = opsdash_install_stop_handlers()
    }

    /// The stop signal received since the last `clear()`, if any.
    public static func pendingStop() -> Int32? {
        let value = opsdash_pending_stop_signal()
        return value == 0 ? nil : value
    }

    /// Forgets a received stop signal.
    public static func clear() {
        opsdash_clear_stop_signal()
    }

    /// Runs the stop handler's body directly, as if `signal` had arrived; for tests.
    static func simulateStop(_ signal: Int32) {
        opsdash_stop_handler(signal)
    }

    /// Installs the crash-signal handlers that restore the terminal on `ttyDescriptor`
    /// (termios saved now) before the process dies.
    static func armCrashHandlers(ttyDescriptor: Int32) {
        // Referenced from Swift so the compiler emits the C accessor the handler uses.
        _ = opsdash_crash_termios()
        _ = opsdash_install_crash_handlers(ttyDescriptor)
    }

    /// After the screen closed there is nothing for a crash handler to restore.
    static func disarmCrashHandlers() {
        opsdash_disarm_crash_handlers()
    }
}
