/// The bounded event log, stored in fixed-size chunks that a copy shares: handing the log to a
/// snapshot copies the chunk list (a reference each) and the chunk being filled, not every
/// entry, and an append after that copies at most that newest chunk.
///
/// The store appends and drops from the front; every picture it hands out shares the chunks,
/// so the dashboard's snapshot each frame neither copies the 500 entries (their strings
/// retained) nor releases the previous picture's (both were a large part of a busy frame).
/// Appending at a bound (`append(_:keeping:)`, the store's path for every state change) costs
/// one array append and a counter: the chunk being filled is a field of its own (no nested
/// uniqueness check), and a dropped entry is released with its whole chunk, once per chunk.
///
/// Reading is `@inlinable`, so the dashboard reading an entry gets a direct access; scans of
/// kind and time (`positions(in:where:)`, `startOfTail(from:)`) read those fields in place,
/// without copying an entry.
package struct SharedLog: RandomAccessCollection, Sendable, Equatable {
    /// Entries per chunk.
    @inlinable static var chunkSize: Int { 32 }

    /// Full chunks, oldest first.
    @usableFromInline var chunks: [[LogEntry]] = []
    /// The chunk being filled, after `chunks`.
    @usableFromInline var tail: [LogEntry] = []
    /// Entries of the oldest chunk (`chunks[0]`, or `tail` when there is no full chunk) that are
    /// no longer in the log.
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
        let chunk = offset / Self.chunkSize
        return chunk < chunks.count
            ? chunks[chunk][offset % Self.chunkSize] : tail[offset - chunks.count * Self.chunkSize]
    }

    /// Adds an entry at the end (copying the newest chunk first when a snapshot shares it).
    package mutating func append(_ entry: LogEntry) {
        if tail.count == Self.chunkSize {
            chunks.append(tail)
            tail = []
        }
        if tail.capacity == 0 { tail.reserveCapacity(Self.chunkSize) }
        tail.append(entry)
        count += 1
    }

    /// Adds an entry at the end and drops the oldest if the log then holds more than `limit`
    /// (at least 1).
    package mutating func append(_ entry: LogEntry, keeping limit: Int) {
        append(entry)
        if count > Swift.max(1, limit) { removeFirst(count - Swift.max(1, limit)) }
    }

    /// Drops the `k` oldest entries (all of them when there are fewer). A dropped entry is
    /// released when its whole chunk is.
    package mutating func removeFirst(_ k: Int) {
        let k = Swift.min(Swift.max(0, k), count)
        guard k > 0 else { return }
        count -= k
        head += k
        if count == 0 {
            chunks = []
            tail = []
            head = 0
            return
        }
        guard head >= Self.chunkSize else { return }
        // `count > 0`, so the oldest entry left is in a later chunk or in `tail`.
        let whole = Swift.min(head / Self.chunkSize, chunks.count)
        chunks.removeFirst(whole)
        head -= whole * Self.chunkSize
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Whether `other` is this log in the very same storage, so holds the same entries: a chunk
    /// is changed only after it is copied once it is shared, so equal chunk addresses (both
    /// logs alive) are the same entries. O(chunks), no entry read.
    package func isSameStorage(as other: Self) -> Bool {
        guard count == other.count, head == other.head, chunks.count == other.chunks.count else { return false }
        for index in chunks.indices where !Self.same(chunks[index], other.chunks[index]) { return false }
        return Self.same(tail, other.tail)
    }

    private static func same(_ mine: [LogEntry], _ theirs: [LogEntry]) -> Bool {
        let mine = mine.withUnsafeBufferPointer { $0 }
        let theirs = theirs.withUnsafeBufferPointer { $0 }
        return mine.count == theirs.count && mine.baseAddress == theirs.baseAddress
    }

    // MARK: Scans in place

    /// The positions in `range` whose entry's kind passes `isWanted`, in order; reads each
    /// entry's kind where it is stored (no entry copied, its strings neither retained nor
    /// released).
    package func positions(in range: Range<Int>, where isWanted: (LogEntry.Kind) -> Bool) -> [Int] {
        var found: [Int] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let offset = head + position
            let chunk = offset / Self.chunkSize
            let inChunk = offset % Self.chunkSize
            let run = Swift.min(Self.chunkSize - inChunk, range.upperBound - position)
            let storage = chunk < chunks.count ? chunks[chunk] : tail
            let first = chunk < chunks.count ? inChunk : offset - chunks.count * Self.chunkSize
            storage.withUnsafeBufferPointer { entries in
                for index in 0..<run where isWanted(entries[first + index].kind) { found.append(position + index) }
            }
            position += run
        }
        return found
    }

    /// The positions of the newest `limit` entries whose kind passes `isWanted`, oldest first;
    /// reads kinds in place, newest first, and stops once `limit` are found.
    package func lastPositions(_ limit: Int, where isWanted: (LogEntry.Kind) -> Bool) -> [Int] {
        var found: [Int] = []
        var end = count
        while end > 0, found.count < limit {
            let start = Swift.max(0, end - Self.chunkSize)
            for position in positions(in: start..<end, where: isWanted).reversed() where found.count < limit {
                found.append(position)
            }
            end = start
        }
        return found.reversed()
    }

    /// The start of the log's tail of entries at `time` or later: walks back from the newest
    /// entry while entries are at `time` or later, reading times in place.
    package func startOfTail(from time: Duration) -> Int {
        var end = count
        while end > 0 {
            let offset = head + end - 1
            let chunk = offset / Self.chunkSize
            let storage = chunk < chunks.count ? chunks[chunk] : tail
            let last = chunk < chunks.count ? offset % Self.chunkSize : offset - chunks.count * Self.chunkSize
            // Entries of this chunk still in the log, up to and including `last`.
            let run = Swift.min(last + 1, end)
            let earlier = storage.withUnsafeBufferPointer { entries -> Int? in
                for index in stride(from: last, to: last - run, by: -1) where entries[index].time < time {
                    return end - (last - index)
                }
                return nil
            }
            if let earlier { return earlier }
            end -= run
        }
        return 0
    }
}
