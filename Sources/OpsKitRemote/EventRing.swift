import DequeModule
import NIOCore

/// The publisher's one bounded history of encoded delta lines, shared by every viewer: each
/// line is formatted once and handed to each viewer as the same buffer. Bounded by a number of
/// lines and of bytes; a viewer whose cursor falls off the start is resynced.
struct EventRing {
    /// One encoded delta.
    struct Entry {
        var seq: UInt64
        var line: ByteBuffer
        /// The operation whose progress this line reports (nil for other lines).
        var progressOf: Int?
        /// A later line about the same operation exists: a lagging viewer may leave this out.
        var superseded = false
    }

    let capacity: Int
    let byteLimit: Int
    private(set) var entries = Deque<Entry>()
    private(set) var bytes = 0
    /// The newest line's seq (0 before the first).
    private(set) var head: UInt64 = 0
    /// The newest progress line in the ring, per operation.
    private var newestProgress: [Int: UInt64] = [:]

    init(capacity: Int, byteLimit: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(1, byteLimit)
    }

    /// The oldest seq still held (head + 1 when empty).
    var first: UInt64 { entries.first?.seq ?? head + 1 }

    /// Appends a line (the progress of operation `progressOf`, if it is one); returns its seq.
    /// A progress line supersedes the operation's previous one; nothing supersedes other lines.
    @discardableResult
    mutating func append(_ line: ByteBuffer, progressOf: Int? = nil) -> UInt64 {
        head += 1
        if let progressOf {
            if let previous = newestProgress[progressOf], previous >= first {
                entries[Int(previous - first)].superseded = true
            }
            newestProgress[progressOf] = head
        }
        entries.append(Entry(seq: head, line: line, progressOf: progressOf))
        bytes += line.readableBytes
        while entries.count > capacity || (bytes > byteLimit && entries.count > 1) {
            let dropped = entries.removeFirst()
            bytes -= dropped.line.readableBytes
            if let op = dropped.progressOf, newestProgress[op] == dropped.seq { newestProgress[op] = nil }
        }
        return head
    }

    /// Numbers `count` deltas nobody will be sent (no viewer is connected) and forgets the
    /// history: a viewer that later offers to resume from before them gets a snapshot.
    mutating func skip(_ count: Int) {
        guard count > 0 else { return }
        head += UInt64(count)
        entries.removeAll()
        bytes = 0
        newestProgress = [:]
    }

    /// Forgets the history (the numbering goes on): no viewer can resume from before now.
    mutating func clear() {
        entries.removeAll()
        bytes = 0
        newestProgress = [:]
    }

    /// The entry with `seq`, if still held.
    func entry(_ seq: UInt64) -> Entry? {
        guard seq >= first, seq <= head else { return nil }
        return entries[Int(seq - first)]
    }
}
