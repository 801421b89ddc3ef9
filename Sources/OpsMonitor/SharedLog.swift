/// The bounded event log, stored in fixed-size chunks that a copy shares: handing the log to a
/// snapshot copies the chunk list (a reference each), not every entry, and an append after
/// that copies at most the newest chunk.
///
/// The store appends and drops from the front; every picture it hands out shares the chunks,
/// so the dashboard's snapshot each frame neither copies the 500 entries (their strings
/// retained) nor releases the previous picture's (both were a large part of a busy frame).
///
/// Reading is `@inlinable`, so the dashboard reading an entry's kind or time (a frame walks the
/// log's tail) gets a direct access to that field, not a call returning a copy of the entry.
package struct SharedLog: RandomAccessCollection, Sendable, Equatable {
    /// Entries per chunk.
    @inlinable static var chunkSize: Int { 32 }

    @usableFromInline var chunks: [[LogEntry]] = []
    /// Entries of the first chunk that are no longer in the log.
    @usableFromInline var head = 0
    package private(set) var count = 0

    package init() {}

    package init(_ entries: some Sequence<LogEntry>) {
        for entry in entries { append(entry) }
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }

    @inlinable package subscript(position: Int) -> LogEntry {
        let offset = head + position
        return chunks[offset / Self.chunkSize][offset % Self.chunkSize]
    }

    /// Adds an entry at the end (copying the newest chunk first when a snapshot shares it).
    package mutating func append(_ entry: LogEntry) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk: [LogEntry] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(entry)
        count += 1
    }

    /// Drops the `k` oldest entries (all of them when there are fewer). A dropped entry is
    /// released when its whole chunk is.
    package mutating func removeFirst(_ k: Int) {
        let k = Swift.min(Swift.max(0, k), count)
        count -= k
        head += k
        if count == 0 {
            chunks = []
            head = 0
            return
        }
        let whole = head / Self.chunkSize
        if whole > 0 {
            chunks.removeFirst(whole)
            head -= whole * Self.chunkSize
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Whether `other` is this log in the very same storage, so holds the same entries: a chunk
    /// is changed only after it is copied once it is shared, so equal chunk addresses (both
    /// logs alive) are the same entries. O(chunks), no entry read.
    package func isSameStorage(as other: Self) -> Bool {
        guard count == other.count, head == other.head, chunks.count == other.chunks.count else { return false }
        for index in chunks.indices {
            let mine = chunks[index].withUnsafeBufferPointer { $0 }
            let theirs = other.chunks[index].withUnsafeBufferPointer { $0 }
            guard mine.count == theirs.count, mine.baseAddress == theirs.baseAddress else { return false }
        }
        return true
    }
}
