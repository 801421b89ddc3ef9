/// The state-change log entries a monitor makes while it applies a backlog, held until the
/// backlog is done as a ring of the newest `limit` (a few scalars each: no string, no reference)
/// and made into `LogEntry`s only then.
///
/// Nobody reads the store in the middle of a backlog (every reader applies the rest first), and
/// the log keeps only its newest `limit` entries: an entry that later ones of the same backlog
/// push out was never seen. Draining 5,000 operations in one backlog made 10,000 entries of
/// which 500 were kept; now only those 500 are built. The operation's name and a finish's
/// message are read from its row when the entry is built (neither changes once set), so the
/// store builds them before any row is evicted (`MonitorStore.buildDeferredLog()`).
struct DeferredLog {
    /// One state change of operation `id`, as the log will show it.
    struct Entry {
        var time: Duration
        var id: Int
        var from: Lifecycle
        var to: Lifecycle
        var outcome: Outcome?
    }

    /// The entries, oldest at `start` once the ring is full.
    private var ring: [Entry] = []
    private var start = 0

    /// Whether no entry waits.
    var isEmpty: Bool { ring.isEmpty }

    /// Adds `entry`, dropping the oldest once `limit` (at least 1) are held (inlined: it runs at
    /// every state change).
    @inline(__always)
    mutating func append(_ entry: Entry, keeping limit: Int) {
        if ring.count < max(1, limit) {
            ring.append(entry)
            return
        }
        ring[start] = entry
        start += 1
        if start == ring.count { start = 0 }
    }

    /// Calls `body` with every entry, oldest first, and empties the ring (keeping its room).
    mutating func takeAll(_ body: (Entry) -> Void) {
        for index in start..<ring.count { body(ring[index]) }
        for index in 0..<start { body(ring[index]) }
        ring.removeAll(keepingCapacity: true)
        start = 0
    }
}
