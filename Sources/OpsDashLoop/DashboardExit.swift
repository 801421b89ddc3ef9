/// Why the dashboard loop ended.
public enum DashboardExit: Sendable, Equatable {
    /// The operator quit (a `.quit` command).
    case quit
    /// A stop signal (SIGHUP, SIGINT, SIGQUIT or SIGTERM) arrived.
    case signal(Int32)
    /// The terminal went away (hang-up, read error or end of file) without a signal.
    case terminalClosed
}
