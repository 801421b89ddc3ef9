import OpsDashLoop
import OpsDashUI
import OpsKit

/// Lines opsdash says that the operator must also see while the dashboard is up (its stderr then
/// goes to a log file): where metrics are served, why a recording stopped. While the screen is
/// up each is sent to the dashboard's inbox, for its message line, with its expiry
/// (`lifetime` later); those said before the screen opened (the newest few) are sent when it
/// opens. What was said while the screen was up goes to stderr once it is closed, not into the log.
enum DashboardNotices {
    private struct Board {
        var waiting: [String] = []
        /// The dashboard's inbox while its screen is up.
        var inbox: LoopInbox?
        /// Said while the screen was up, so not on stderr yet.
        var unwritten: [String] = []
    }

    // Locking: the board is only touched under this lock (any thread posts, the dashboard takes).
    private static let board = OpsMutex(Board())
    /// Notices kept for a dashboard that has not opened yet (the oldest are dropped).
    static let limit = 8
    /// How long a notice stays in the message line unless a key clears it first; it is said
    /// on stderr again when the screen closes.
    static let lifetime = Duration.seconds(10)

    /// Says `line` (as `opsdash: line` on stderr, at once or when the screen closes) and keeps
    /// it for the dashboard's message line.
    static func post(_ line: String) {
        let inbox = board.withLock { board -> LoopInbox? in
            if let inbox = board.inbox {
                board.unwritten.append(line)
                return inbox
            }
            board.waiting.append(line)
            if board.waiting.count > limit { board.waiting.removeFirst(board.waiting.count - limit) }
            return nil
        }
        guard let inbox else { return StandardStreams.error("opsdash: \(line)") }
        send(line, to: inbox)
    }

    /// The dashboard's screen is up: notices go to `inbox` (those said before it opened too)
    /// and wait for the screen to close before going to stderr.
    static func screenOpened(_ inbox: LoopInbox) {
        let waiting = board.withLock { board -> [String] in
            board.inbox = inbox
            defer { board.waiting = [] }
            return board.waiting
        }
        for line in waiting { send(line, to: inbox) }
    }

    /// The screen is closed: writes to stderr what was said while it was up.
    static func screenClosed() {
        let unwritten = board.withLock { board -> [String] in
            board.inbox = nil
            defer { board.unwritten = [] }
            return board.unwritten
        }
        for line in unwritten { StandardStreams.error("opsdash: \(line)") }
    }

    private static func send(_ line: String, to inbox: LoopInbox) {
        let shown = ControlCharacterEscaping.escape(line)
        inbox.send(.notice(shown))
        inbox.send(.noticeExpired(shown), at: .now + lifetime)
    }
}
