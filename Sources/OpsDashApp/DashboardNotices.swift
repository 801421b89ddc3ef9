import Synchronization

/// Lines opsdash says on stderr that the operator must also see while the dashboard is up (its
/// stderr then goes to a log file): where metrics are served, why a recording stopped. The
/// dashboard shows each in its message line as it takes them; the newest few wait for it.
enum DashboardNotices {
    // Locking: the list is only touched under this lock (any thread posts, the dashboard takes).
    private static let waiting = Mutex<[String]>([])
    /// Notices kept for a dashboard that has not taken them yet (the oldest are dropped).
    static let limit = 8

    /// Writes `line` to stderr as `opsdash: line` and keeps it for the dashboard's message line.
    static func post(_ line: String) {
        StandardStreams.error("opsdash: \(line)")
        waiting.withLock { waiting in
            waiting.append(line)
            if waiting.count > limit { waiting.removeFirst(waiting.count - limit) }
        }
    }

    /// The notices posted since the last take, oldest first.
    static func take() -> [String] {
        waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
    }
}
