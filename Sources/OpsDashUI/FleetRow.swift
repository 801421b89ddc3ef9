/// One row of the fleet list: one published queue's summary (a few numbers, never a picture of
/// its operations), as `opsdash attach` made it from the app's `status` answers.
package struct FleetRow: Sendable, Equatable {
    /// What tells two rows apart (the socket path): the selection follows it.
    package var id: String
    package var app: String
    package var queue: String
    package var pid: Int
    package var host: String
    /// Operations running, waiting (waiting and ready) and failed; nil before the app answered.
    package var running: Int?
    package var waiting: Int?
    package var failed: Int?
    /// Operations finished per second, oldest first (the sparkline).
    package var throughput: [Double]
    package var viewers: Int
    /// Whether the app lets this user steer it; nil before it answered.
    package var control: Bool?
    /// Seconds since the app last answered; nil if it never did.
    package var lastSeenAgo: Double?
    /// The app went away (its row is greyed until it drops).
    package var departed: Bool
    /// For a host of the hosts file that lists no apps now: why (one line, e.g. ssh's error),
    /// shown instead of the columns.
    package var note: String?

    package init(
        id: String, app: String, queue: String, pid: Int, host: String, running: Int? = nil, waiting: Int? = nil,
        failed: Int? = nil, throughput: [Double] = [], viewers: Int = 0, control: Bool? = nil,
        lastSeenAgo: Double? = nil, departed: Bool = false, note: String? = nil
    ) {
        self.id = id
        self.app = app
        self.queue = queue
        self.pid = pid
        self.host = host
        self.running = running
        self.waiting = waiting
        self.failed = failed
        self.throughput = throughput
        self.viewers = viewers
        self.control = control
        self.lastSeenAgo = lastSeenAgo
        self.departed = departed
        self.note = note
    }

    /// "app/queue".
    package var label: String { "\(app)/\(queue)" }

    /// Whether the filter `text` matches: app/queue, host or pid, or the words shown for its
    /// state (`departed`, `control`, `read-only`), case-insensitively.
    package func matches(_ text: String) -> Bool {
        let needle = text.lowercased()
        guard !needle.isEmpty else { return true }
        var words = [label, host, String(pid)]
        if departed { words.append("departed") }
        if let note { words.append(note) }
        if let control { words.append(control ? "control" : "read-only") }
        return words.contains { $0.lowercased().contains(needle) }
    }
}
