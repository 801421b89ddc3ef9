import OpsKit
import Synchronization

/// Lines opsdash says that the operator must also see while the dashboard is up (its stderr then
/// goes to a log file): where metrics are served, why a recording stopped. The dashboard shows
/// each in its message line as it takes them (the newest few wait for it); what was said while
/// the screen was up goes to stderr once the screen is closed, not into the log.
enum DashboardNotices {
    private struct Board {
        var waiting: [String] = []
        var screenUp = false
        /// Said while the screen was up, so not on stderr yet.
        var unwritten: [String] = []
    }

    // Locking: the board is only touched under this lock (any thread posts, the dashboard takes).
    private static let board = OpsMutex(Board())
    /// Notices kept for a dashboard that has not taken them yet (the oldest are dropped).
    static let limit = 8

    /// Says `line` (as `opsdash: line` on stderr, at once or when the screen closes) and keeps
    /// it for the dashboard's message line.
    static func post(_ line: String) {
        let writeNow = board.withLock { board -> Bool in
            board.waiting.append(line)
            if board.waiting.count > limit { board.waiting.removeFirst(board.waiting.count - limit) }
            if board.screenUp { board.unwritten.append(line) }
            return !board.screenUp
        }
        if writeNow { StandardStreams.error("opsdash: \(line)") }
    }

    /// The notices posted since the last take, oldest first.
    static func take() -> [String] {
        board.withLock { board in
            defer { board.waiting = [] }
            return board.waiting
        }
    }

    /// The dashboard's screen is up: notices wait for it to close before going to stderr.
    static func screenOpened() {
        board.withLock { $0.screenUp = true }
    }

    /// The screen is closed: writes to stderr what was said while it was up.
    static func screenClosed() {
        let unwritten = board.withLock { board -> [String] in
            board.screenUp = false
            defer { board.unwritten = [] }
            return board.unwritten
        }
        for line in unwritten { StandardStreams.error("opsdash: \(line)") }
    }
}
