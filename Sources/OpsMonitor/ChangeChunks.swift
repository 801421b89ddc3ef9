/// Pending changes, oldest first, kept in a linked list of chunks of at most `chunkSize` (or one
/// recorded batch each): appending never copies what is already recorded, moving the whole list
/// to another is a few pointer moves, and nothing a worker thread allocates while recording is
/// large enough to make malloc consolidate its free lists.
///
/// A request over glibc's small-request limit (1,008 bytes) first runs `malloc_consolidate`
/// on the allocating thread's arena, a walk over every small chunk freed since the last one
/// (a worker frees several per operation it runs). Chunks stay under the limit, and a list has
/// no spine to grow: an array of chunks would be reallocated at each doubling past 128 chunks,
/// on the recording worker and under the inbox lock, whenever the applier falls behind during a
/// drain.
///
/// A list is moved (into the backlog, or replaced by an empty one), never shared: two copies
/// of one value must not both be appended to.
struct ChangeChunks {
    /// Changes per chunk filled one at a time: a chunk (array header included) stays under
    /// glibc's small-request limit.
    static let chunkSize = max(4, (1_000 - 32) / MemoryLayout<PendingChange>.stride)

    /// The oldest full chunk or batch, whose first `head` changes were already taken.
    private var first: ChangeChunk?
    /// The newest full chunk or batch.
    private var last: ChangeChunk?
    /// The chunk being filled, after `last` (kept in the list itself: appending to a chunk
    /// object's array would cost an exclusivity check per change on the recording thread).
    private var tail: [PendingChange] = []
    /// Changes of `first` already taken by `popFirst()`.
    private var head = 0
    /// Changes held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends one change (into the tail chunk; a full tail is linked into the list first).
    mutating func append(_ change: consuming PendingChange) {
        if tail.count == Self.chunkSize { moveTailToChunks() }
        if tail.capacity == 0 { tail.reserveCapacity(Self.chunkSize) }
        tail.append(change)
        count += 1
    }

    /// Appends a batch: a large one as a chunk of its own (no copy), one smaller than a chunk
    /// change by change (a chunk object and an array for each operation added on its own would
    /// hold ~145 bytes a change, where a full chunk holds ~60).
    mutating func append(batch: [PendingChange]) {
        guard batch.count >= Self.chunkSize else {
            for change in batch { append(change) }
            return
        }
        moveTailToChunks()
        link(ChangeChunk(batch))
        count += batch.count
    }

    /// Moves everything in `other` to the end of this list, leaving `other` empty.
    mutating func append(takingAllOf other: inout ChangeChunks) {
        guard !other.isEmpty else { return }
        moveTailToChunks()
        other.moveTailToChunks()
        guard let otherFirst = other.first else { return }
        if last == nil {
            head = other.head
        } else if other.head > 0 {
            otherFirst.changes.removeFirst(other.head)
        }
        link(otherFirst)
        last = other.last
        count += other.count
        other = ChangeChunks()
    }

    /// Removes and returns the oldest change.
    mutating func popFirst() -> PendingChange? {
        guard count > 0 else { return nil }
        if first == nil { moveTailToChunks() }
        guard let chunk = first else { return nil }
        // A chunk is unlinked as soon as its last change is taken, so the first one has more.
        // The change is moved out, a placeholder holding no reference left in its place: a copy
        // would retain what it holds (an added operation, its tokens) and the chunk's end
        // release it again.
        var change = PendingChange.taken
        swap(&change, &chunk.changes[head])
        head += 1
        count -= 1
        if head == chunk.changes.count {
            first = chunk.next.take()
            if first == nil { last = nil }
            head = 0
        }
        return change
    }

    /// Removes the oldest changes, at most `limit` of them, handing each to `body` in order;
    /// returns how many it removed. As `popFirst()`, each is moved out and a placeholder left,
    /// but a chunk is reached once per run of changes, not once per change (a drain's backlog
    /// holds 300,000).
    @discardableResult
    mutating func removeFirst(upTo limit: Int, _ body: (consuming PendingChange) -> Void) -> Int {
        var removed = 0
        while removed < limit, count > 0 {
            if first == nil { moveTailToChunks() }
            guard let chunk = first else { break }
            let start = head
            let end = min(chunk.changes.count, start + (limit - removed))
            chunk.changes.withUnsafeMutableBufferPointer { changes in
                guard let base = changes.baseAddress else { return }
                for index in start..<end {
                    let change = (base + index).move()
                    (base + index).initialize(to: .taken)
                    body(change)
                }
            }
            removed += end - start
            count -= end - start
            head = end
            if head == chunk.changes.count {
                first = chunk.next.take()
                if first == nil { last = nil }
                head = 0
            }
        }
        return removed
    }

    /// Every change, oldest first (for `stop()`, which only looks at what was dropped).
    var all: [PendingChange] {
        var result: [PendingChange] = []
        result.reserveCapacity(count)
        var chunk = first
        var skip = head
        while let current = chunk {
            result += current.changes[skip...]
            skip = 0
            chunk = current.next
        }
        result += tail
        return result
    }

    /// Chunks held, the one being filled included (a walk; for tests).
    var chunkCount: Int {
        var result = tail.isEmpty ? 0 : 1
        var chunk = first
        while let current = chunk {
            result += 1
            chunk = current.next
        }
        return result
    }

    private mutating func moveTailToChunks() {
        guard !tail.isEmpty else { return }
        link(ChangeChunk(tail))
        tail = []
    }

    /// Links `chunk` after the newest one.
    private mutating func link(_ chunk: ChangeChunk) {
        if let last {
            last.next = chunk
        } else {
            first = chunk
        }
        last = chunk
    }
}

/// One chunk of a `ChangeChunks` list.
final class ChangeChunk: @unchecked Sendable {
    // Locking: a chunk is only reached through the one `ChangeChunks` list holding it, and that
    // list lives in the monitor's inbox (its spin lock) or backlog (the monitor's state lock);
    // lists are moved between the two under both locks, never shared. No access overlaps
    // another, so the run-time exclusivity check (one per change applied) is left out.
    @exclusivity(unchecked) var changes: [PendingChange]
    @exclusivity(unchecked) var next: ChangeChunk?

    init(_ changes: [PendingChange]) {
        self.changes = changes
    }
}
