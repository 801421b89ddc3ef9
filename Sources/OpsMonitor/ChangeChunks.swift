import DequeModule

/// Pending changes, oldest first, kept in chunks of at most `chunkSize` (or one recorded batch
/// each): appending never copies what is already recorded, moving the whole list to another is
/// a handful of pointer moves, and no chunk a worker thread allocates is large enough to make
/// malloc consolidate its free lists.
struct ChangeChunks {
    /// Changes per chunk filled one at a time: a chunk (array header included) stays under
    /// glibc's small-request limit (1,008 bytes), as a larger request first consolidates the
    /// allocating thread's free lists (`malloc_consolidate`), on the queue's worker threads.
    static let chunkSize = max(4, (1_000 - 32) / MemoryLayout<PendingChange>.stride)

    /// Full chunks and whole batches, oldest first.
    private var chunks = Deque<[PendingChange]>()
    /// The chunk being filled, after `chunks`.
    private var tail: [PendingChange] = []
    /// Changes of `chunks.first` already taken by `popFirst()`.
    private var head = 0
    /// Changes held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends one change (into the tail chunk; a full tail moves to the list first).
    mutating func append(_ change: PendingChange) {
        if tail.count == Self.chunkSize {
            chunks.append(tail)
            tail = []
        }
        if tail.capacity == 0 { tail.reserveCapacity(Self.chunkSize) }
        tail.append(change)
        count += 1
    }

    /// Appends a batch as a chunk of its own (no copy).
    mutating func append(batch: [PendingChange]) {
        guard !batch.isEmpty else { return }
        moveTailToChunks()
        chunks.append(batch)
        count += batch.count
    }

    /// Moves everything in `other` to the end of this list, leaving `other` empty.
    mutating func append(takingAllOf other: inout ChangeChunks) {
        guard !other.isEmpty else { return }
        moveTailToChunks()
        other.moveTailToChunks()
        if other.head > 0, let first = other.chunks.popFirst() {
            chunks.append(Array(first[other.head...]))
        }
        chunks.append(contentsOf: other.chunks)
        count += other.count
        other = ChangeChunks()
    }

    /// Removes and returns the oldest change.
    mutating func popFirst() -> PendingChange? {
        guard count > 0 else { return nil }
        if chunks.isEmpty { moveTailToChunks() }
        // A chunk is dropped as soon as its last change is taken, so the first one has more.
        let change = chunks[0][head]
        head += 1
        count -= 1
        if head == chunks[0].count {
            chunks.removeFirst()
            head = 0
        }
        return change
    }

    /// Every change, oldest first (for `stop()`, which only looks at what was dropped).
    var all: [PendingChange] {
        var result: [PendingChange] = []
        result.reserveCapacity(count)
        for (index, chunk) in chunks.enumerated() { result += index == 0 ? chunk[head...] : chunk[...] }
        result += tail
        return result
    }

    private mutating func moveTailToChunks() {
        guard !tail.isEmpty else { return }
        chunks.append(tail)
        tail = []
    }
}
