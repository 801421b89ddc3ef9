#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `opsdash`'s documented exit codes, and the one mapping from how a run ended to its status.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Every operation succeeded (or `--list-scenarios`, `--help`, `--version`).
    case success = 0
    /// Some operation failed or was cancelled.
    case someFailed = 1
    /// Bad flags, a bad scenario, or no usable terminal; one line on stderr says why.
    case usage = 2
    /// Headless output could not be written (disk full, stdout closed, …); one line on stderr.
    case outputFailed = 3
    /// A headless run's `--until` condition became true; an `until` line says which.
    case untilFired = 4
    /// Ended by SIGHUP, or the terminal went away.
    case hangup = 129
    /// Ended by SIGINT (Ctrl-C).
    case interrupted = 130
    /// Ended by SIGQUIT (Ctrl-\).
    case quit = 131
    /// Headless output's reader went away (a broken pipe, e.g. `| head -1`); nothing on stderr.
    case brokenPipe = 141
    /// Ended by SIGTERM.
    case terminated = 143

    /// The status for a run that ended by `signal` (128 + its number).
    static func forSignal(_ signal: Int32) -> ExitStatus {
        switch signal {
        case SIGHUP: .hangup
        case SIGQUIT: .quit
        case SIGPIPE: .brokenPipe
        case SIGTERM: .terminated
        default: .interrupted
        }
    }

    /// 0 when everything succeeded, else 1.
    static func forCounts(failed: Int, cancelled: Int, unfinished: Int) -> ExitStatus {
        failed + cancelled + unfinished == 0 ? .success : .someFailed
    }
}
