/// `opsdash`'s documented exit codes.
public enum ExitStatus: Int32, Sendable {
    /// Every operation succeeded (or `--list-scenarios`, `--help`).
    case success = 0
    /// Some operation failed or was cancelled.
    case someFailed = 1
    /// Bad flags, a bad scenario, or no usable terminal; one line on stderr says why.
    case usage = 2
    /// Interrupted by SIGHUP.
    case hangup = 129
    /// Interrupted by SIGINT (Ctrl-C).
    case interrupted = 130
    /// Terminated by SIGTERM.
    case terminated = 143

    /// The status for a run that ended by `signal`.
    static func forSignal(_ signal: Int32) -> ExitStatus {
        switch signal {
        case 1: .hangup
        case 15: .terminated
        default: .interrupted
        }
    }

    /// 0 when everything succeeded, else 1.
    static func forCounts(failed: Int, cancelled: Int, unfinished: Int) -> ExitStatus {
        failed + cancelled + unfinished == 0 ? .success : .someFailed
    }
}
