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
    /// Changes per chunk filled one at a time: a chunk's storage stays under glibc's
    /// small-request limit.
    static let chunkSize = max(4, 1_000 / MemoryLayout<PendingChange>.stride)

    /// The oldest full chunk or batch.
    private var first: ChangeChunk?
    /// The newest full chunk or batch.
    private var last: ChangeChunk?
    /// The chunk being filled, after `last`.
    private var tail: ChangeChunk?
    /// Changes held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends one change (into the tail chunk; a full tail is linked into the list first).
    mutating func append(_ change: consuming PendingChange) {
        if tail?.isFull ?? true { startTail() }
        tail?.append(change)
        count += 1
    }

    /// Appends a batch, copied: a large one as a chunk of its own, one smaller than a chunk
    /// change by change.
    mutating func append(batch: [PendingChange]) {
        let chunk = ChangeChunk(capacity: batch.count)
        for change in batch { chunk.append(change) }
        append(batch: chunk)
    }

    /// Appends the changes `batch` holds (a batch of added operations, built where it was
    /// recorded): a large one as a chunk of its own (no copy), one smaller than a chunk moved
    /// into the tail (a chunk for each operation added on its own would hold ~145 bytes a
    /// change, where a full chunk holds ~60).
    mutating func append(batch: ChangeChunk) {
        let size = batch.count
        guard size >= Self.chunkSize else {
            while batch.count > 0 {
                if tail?.isFull ?? true { startTail() }
                tail?.moveFirst(from: batch)
            }
            count += size
            return
        }
        moveTailToChunks()
        link(batch)
        count += size
    }

    /// Moves everything in `other` to the end of this list, leaving `other` empty.
    mutating func append(takingAllOf other: inout ChangeChunks) {
        guard !other.isEmpty else { return }
        moveTailToChunks()
        other.moveTailToChunks()
        guard let otherFirst = other.first else { return }
        link(otherFirst)
        last = other.last
        count += other.count
        other = ChangeChunks()
    }

    /// Removes and returns the oldest change.
    mutating func popFirst() -> PendingChange? {
        var popped: PendingChange?
        removeFirst(upTo: 1) { popped = $0 }
        return popped
    }

    /// Removes the oldest changes, at most `limit` of them, handing each to `body` in order;
    /// returns how many it removed. Each is moved out of its chunk (not copied), and a chunk is
    /// reached once per run of changes, not once per change (a drain's backlog holds 300,000).
    @discardableResult
    mutating func removeFirst(upTo limit: Int, _ body: (consuming PendingChange) -> Void) -> Int {
        var removed = 0
        while removed < limit, count > 0 {
            if first == nil { moveTailToChunks() }
            guard let chunk = first else { break }
            let taken = chunk.removeFirst(upTo: limit - removed, body)
            removed += taken
            count -= taken
            if chunk.count == 0 {
                first = chunk.next.take()
                if first == nil { last = nil }
            }
        }
        return removed
    }

    /// Every change, oldest first (for `stop()`, which only looks at what was dropped).
    var all: [PendingChange] {
        var result: [PendingChange] = []
        result.reserveCapacity(count)
        var chunk = first
        while let current = chunk {
            current.copy(into: &result)
            chunk = current.next
        }
        tail?.copy(into: &result)
        return result
    }

    /// Chunks held, the one being filled included (a walk; for tests).
    var chunkCount: Int {
        var result = (tail?.count ?? 0) > 0 ? 1 : 0
        var chunk = first
        while let current = chunk {
            result += 1
            chunk = current.next
        }
        return result
    }

    /// Links the tail (if it holds any change) and starts an empty one.
    private mutating func startTail() {
        moveTailToChunks()
        tail = ChangeChunk(capacity: Self.chunkSize)
    }

    private mutating func moveTailToChunks() {
        guard let chunk = tail.take(), chunk.count > 0 else { return }
        link(chunk)
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

/// One chunk of a `ChangeChunks` list: room for `capacity` changes, of which those from
/// `start` to `end` are held. A change taken is moved out, so freeing a chunk whose changes
/// were all taken destroys none (an array of changes destroyed each of its elements, ~60
/// instructions apiece, taken or not).
final class ChangeChunk: @unchecked Sendable {
    // Locking: a chunk is only reached through the one `ChangeChunks` list holding it (or by
    // the thread building it as a batch), and that list lives in the monitor's inbox (its spin
    // lock) or backlog (the monitor's state lock); lists are moved between the two under both
    // locks, never shared. No access overlaps another, so the run-time exclusivity check (one
    // per change recorded and applied) is left out.
    private let storage: UnsafeMutablePointer<PendingChange>
    let capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) var next: ChangeChunk?

    /// An empty chunk with room for `capacity` changes (at least one).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        (storage + start).deinitialize(count: end - start)
        storage.deallocate()
        // A long list is freed a chunk at a time, not by a recursion per chunk (each freed
        // here has no next left to free).
        var chunk = next.take()
        while var current = chunk.take(), isKnownUniquelyReferenced(&current) {
            chunk = current.next.take()
        }
    }

    /// Changes held.
    var count: Int { end - start }

    /// Whether no more change fits.
    var isFull: Bool { end == capacity }

    /// Appends `change`; the chunk must not be full.
    func append(_ change: consuming PendingChange) {
        assert(end < capacity, "appended to a full chunk")
        guard end < capacity else { return }
        (storage + end).initialize(to: change)
        end += 1
    }

    /// Moves the oldest change of `other` to the end of this chunk, which must not be full.
    func moveFirst(from other: ChangeChunk) {
        guard end < capacity, other.count > 0 else { return }
        (storage + end).moveInitialize(from: other.storage + other.start, count: 1)
        end += 1
        other.start += 1
    }

    /// Removes the oldest changes, at most `limit`, handing each to `body` in order.
    func removeFirst(upTo limit: Int, _ body: (consuming PendingChange) -> Void) -> Int {
        let stop = start + min(limit, count)
        var removed = 0
        while start < stop {
            let change = (storage + start).move()
            start += 1
            removed += 1
            body(change)
        }
        return removed
    }

    /// Appends copies of the changes held to `result`.
    func copy(into result: inout [PendingChange]) {
        result.append(contentsOf: UnsafeBufferPointer(start: storage + start, count: count))
    }
}
