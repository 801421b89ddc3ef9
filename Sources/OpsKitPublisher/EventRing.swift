import DequeModule
import NIOCore

/// The publisher's one bounded history of encoded delta lines, shared by every viewer: each
/// line is formatted once, into a batch buffer with the lines published with it, and every
/// viewer is sent slices of those batches (a run of consecutive lines of one batch is one
/// slice: one write, whatever its length). Bounded by a number of lines and of bytes; a viewer
/// whose cursor falls off the start is resynced.
struct EventRing {
    /// One encoded delta.
    struct Entry {
        var seq: UInt64
        /// The buffer the line was encoded into, with the other lines of its batch.
        var batch: ByteBuffer
        /// Which batch (equal numbers: the same buffer).
        var batchNumber: UInt64
        /// Where the line is in `batch` (from its reader index) and how long it is.
        var offset: Int
        var length: Int
        /// The operation whose progress this line reports (nil for other lines).
        var progressOf: Int?
        /// The seq of its batch's last line.
        var batchLast: UInt64
        /// Whether its batch has progress lines (the only ones a lagging viewer may skip).
        var batchHasProgress: Bool
        /// A later line about the same operation exists: a lagging viewer may leave this out.
        var superseded = false
        /// Where the line starts in the stream of every line appended (the shared-memory stream).
        var stream: UInt64 = 0

        /// The line alone (a slice of the batch: no copy).
        var line: ByteBuffer {
            batch.getSlice(at: batch.readerIndex + offset, length: length) ?? ByteBuffer()
        }
    }

    /// A line of a batch being appended: its length and what it reports.
    struct Line {
        var length: Int
        var progressOf: Int?
    }

    let capacity: Int
    let byteLimit: Int
    private(set) var entries = Deque<Entry>()
    private(set) var bytes = 0
    /// The newest line's seq (0 before the first).
    private(set) var head: UInt64 = 0
    /// The newest progress line in the ring, per operation.
    private var newestProgress: [Int: UInt64] = [:]
    private var batches: UInt64 = 0
    /// Bytes of every line appended so far: where the next line starts in the stream.
    private(set) var streamEnd: UInt64 = 0
    /// Also writes every line into this shared-memory stream (for local viewers that map it).
    var mirror: SharedRingWriter?

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
        append(batch: line, lines: [Line(length: line.readableBytes, progressOf: progressOf)])
        return head
    }

    /// Appends the lines of `batch`, in order: `lines` gives each one's length, and together
    /// they cover the batch's readable bytes.
    mutating func append(batch: ByteBuffer, lines: [Line]) {
        batches += 1
        let last = head + UInt64(lines.count)
        let hasProgress = lines.contains { $0.progressOf != nil }
        mirror?.write(batch)
        var offset = 0
        for line in lines {
            head += 1
            if let op = line.progressOf {
                if let previous = newestProgress[op], previous >= first {
                    entries[Int(previous - first)].superseded = true
                }
                newestProgress[op] = head
            }
            entries.append(
                Entry(
                    seq: head, batch: batch, batchNumber: batches, offset: offset, length: line.length,
                    progressOf: line.progressOf, batchLast: last, batchHasProgress: hasProgress,
                    stream: streamEnd + UInt64(offset)))
            offset += line.length
            bytes += line.length
        }
        streamEnd += UInt64(offset)
        while entries.count > capacity || (bytes > byteLimit && entries.count > 1) {
            let dropped = entries.removeFirst()
            bytes -= dropped.length
            if let op = dropped.progressOf, newestProgress[op] == dropped.seq { newestProgress[op] = nil }
        }
    }

    /// Writes `lines` (no deltas: a keyframe) into the shared-memory stream alone, after
    /// everything appended so far; returns where they start there. Nil without a stream, or
    /// when they would take more than three quarters of it: the quarter left is the deltas
    /// that may follow before a reader has copied the keyframe out (at least 2 MiB by default,
    /// 80 ms of the most a queue changes outside a burst; a reader overtaken resyncs). A
    /// keyframe that does not fit goes into each viewer's socket instead: the end of a burst
    /// of 100,000 operations (~12,000 kept, 4.8 MB) cost the app ~1 ms per viewer that way.
    mutating func appendToStreamOnly(_ lines: ByteBuffer) -> UInt64? {
        guard let mirror, lines.readableBytes <= mirror.capacity / 4 * 3 else { return nil }
        let start = streamEnd
        mirror.write(lines)
        streamEnd += UInt64(lines.readableBytes)
        return start
    }

    /// Numbers `count` deltas nobody will be sent (no viewer is connected) and forgets the
    /// history: a viewer that later offers to resume from before them gets a snapshot.
    mutating func skip(_ count: Int) {
        guard count > 0 else { return }
        head += UInt64(count)
        clear()
    }

    /// Forgets the history (the numbering goes on): no viewer can resume from before now.
    mutating func clear() {
        entries.removeAll()
        bytes = 0
        newestProgress = [:]
    }

    /// Where the line with `seq` starts in the stream (the stream's end for the next line to
    /// come), if that line is still held or is the next one.
    func streamPosition(of seq: UInt64) -> UInt64? {
        seq == head + 1 ? streamEnd : entry(seq)?.stream
    }

    /// The entry with `seq`, if still held.
    func entry(_ seq: UInt64) -> Entry? {
        guard seq >= first, seq <= head else { return nil }
        return entries[Int(seq - first)]
    }
}
