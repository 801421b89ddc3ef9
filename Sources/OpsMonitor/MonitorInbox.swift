import OpsKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recorded change and its place in recording order.
struct SequencedChange: Sendable {
    var sequence: UInt64
    var change: PendingChange
}

/// Changes recorded and not applied yet, in shards picked by the recording thread: two worker
/// threads recording at once almost never take the same lock or write the same lines (with one
/// shared inbox, a worker preempted while appending sent the other into `sched_yield`).
///
/// Order across shards is a number taken from one counter inside the shard's lock; `take`
/// reads the counter first, then empties every shard, and hands over exactly the changes
/// numbered below what it read, in order. That is every change recorded before the take began:
/// a change numbered earlier was appended under its shard's lock, which the take waits for.
/// Changes numbered later, already taken from their shard, wait in `early` for the next take.
///
/// Locking: each shard is behind its own spin lock; `next`, `taken` and `applyScheduled` are
/// atomics; `early` belongs to the caller of `take` (the monitor's state lock).
final class MonitorInbox: Sendable {
    /// Shards: enough that a queue's worker threads rarely share one.
    static let shardCount = 16

    private struct Shard: Sendable {
        var changes = ChangeChunks<SequencedChange>()
        /// Set by `stop()`: later changes are dropped.
        var stopped = false
    }

    private let shards: [SpinLocked<Shard>]
    /// The number the next change gets.
    private let next = Atomic<UInt64>(0)
    /// Changes numbered below this were taken (for the pending count).
    private let taken = Atomic<UInt64>(0)
    /// Whether a background apply is already on its way.
    private let applyScheduled = Atomic<Bool>(false)

    init() {
        shards = (0..<Self.shardCount).map { _ in SpinLocked(Shard()) }
    }

    /// Appends `change`; then what the recording thread does: schedule a background apply once
    /// `batch` changes wait (if none is on its way), or apply itself once `limit` wait.
    func append(_ change: PendingChange, batch: Int, limit: Int) -> NextApply {
        append(change, batch: batch, limit: limit, to: currentShard())
    }

    /// Appends `change` to shard `index` (for tests: two threads that surely use two shards).
    func append(_ change: PendingChange, shard index: Int) {
        _ = append(change, batch: .max, limit: .max, to: shards[index % Self.shardCount])
    }

    private func append(_ change: PendingChange, batch: Int, limit: Int, to shard: SpinLocked<Shard>) -> NextApply {
        let number = shard.withLock { shard -> UInt64? in
            guard !shard.stopped else { return nil }
            let number = next.wrappingAdd(1, ordering: .sequentiallyConsistent).oldValue
            shard.changes.append(SequencedChange(sequence: number, change: change))
            return number
        }
        guard let number else { return .nothing }
        return nextApply(pending: number &+ 1 &- taken.load(ordering: .relaxed), batch: batch, limit: limit)
    }

    /// Appends `changes` in order, as one chunk.
    func append(batch changes: [PendingChange], batch: Int, limit: Int) -> NextApply {
        guard !changes.isEmpty else { return .nothing }
        let count = UInt64(changes.count)
        let last = currentShard().withLock { shard -> UInt64? in
            guard !shard.stopped else { return nil }
            let first = next.wrappingAdd(count, ordering: .sequentiallyConsistent).oldValue
            shard.changes.append(batch: Self.numbered(changes, from: first))
            return first &+ count &- 1
        }
        guard let last else { return .nothing }
        return nextApply(pending: last &+ 1 &- taken.load(ordering: .relaxed), batch: batch, limit: limit)
    }

    /// Runs `body` with nothing recorded meanwhile (every shard held) and appends what it
    /// returns, numbered before any change recorded after.
    func appendHoldingEveryShard(_ body: () -> [PendingChange]) {
        holdShards(from: 1) {
            shards[0].withLock { shard in
                let changes = body()
                guard !changes.isEmpty else { return }
                let first = next.wrappingAdd(UInt64(changes.count), ordering: .sequentiallyConsistent).oldValue
                shard.changes.append(batch: Self.numbered(changes, from: first))
            }
        }
    }

    /// Moves every change recorded before this call to the end of `backlog`, in recording
    /// order, and re-arms scheduling. `early` holds changes taken but numbered after the call
    /// began (they go first, in order, at the next take).
    func take(into backlog: inout ChangeChunks<PendingChange>, early: inout [SequencedChange]) {
        applyScheduled.store(false, ordering: .sequentiallyConsistent)
        let bound = next.load(ordering: .sequentiallyConsistent)
        var sources: [[SequencedChange]] = early.isEmpty ? [] : [early]
        for shard in shards {
            let changes = shard.withLock { shard -> ChangeChunks<SequencedChange> in
                defer { shard.changes = ChangeChunks() }
                return shard.changes
            }
            if !changes.isEmpty { sources.append(changes.all) }
        }
        early = Self.merge(sources, below: bound, into: &backlog)
        taken.store(bound, ordering: .relaxed)
    }

    /// Stops recording (later changes are dropped) and returns what was not taken.
    func stop() -> [PendingChange] {
        var dropped: [PendingChange] = []
        for shard in shards {
            shard.withLock { shard in
                shard.stopped = true
                dropped += shard.changes.all.map(\.change)
                shard.changes = ChangeChunks()
            }
        }
        return dropped
    }

    /// Changes recorded and not taken (a look; for tests).
    var count: Int {
        shards.reduce(0) { sum, shard in sum + shard.withLock { $0.changes.count } }
    }

    // MARK: Inside

    /// The shard of the calling thread (a hash of its id: a thread always uses the same one).
    private func currentShard() -> SpinLocked<Shard> {
        let id = UInt64(Self.threadID())
        return shards[Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 60) % Self.shardCount]
    }

    private static func threadID() -> UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }

    private func holdShards(from index: Int, _ body: () -> Void) {
        guard index < shards.count else { return body() }
        shards[index].withLock { _ in holdShards(from: index + 1, body) }
    }

    private func nextApply(pending: UInt64, batch: Int, limit: Int) -> NextApply {
        if pending >= UInt64(limit) { return .applyHere }
        guard pending >= UInt64(batch), !applyScheduled.load(ordering: .relaxed),
            !applyScheduled.exchange(true, ordering: .relaxed)
        else { return .nothing }
        return .schedule
    }

    private static func numbered(_ changes: [PendingChange], from first: UInt64) -> [SequencedChange] {
        changes.enumerated().map { SequencedChange(sequence: first &+ UInt64($0.offset), change: $0.element) }
    }

    /// Merges lists that are each in order: changes numbered below `bound` go to `backlog` in
    /// order; the others are returned, in order.
    static func merge(
        _ sources: [[SequencedChange]], below bound: UInt64, into backlog: inout ChangeChunks<PendingChange>
    ) -> [SequencedChange] {
        var later: [SequencedChange] = []
        if sources.count == 1 {
            for item in sources[0] {
                if item.sequence < bound { backlog.append(item.change) } else { later.append(item) }
            }
            return later
        }
        var positions = [Int](repeating: 0, count: sources.count)
        while true {
            var best = -1
            var bestSequence = UInt64.max
            for index in sources.indices where positions[index] < sources[index].count {
                let sequence = sources[index][positions[index]].sequence
                if sequence < bestSequence {
                    bestSequence = sequence
                    best = index
                }
            }
            guard best >= 0 else { return later }
            let item = sources[best][positions[best]]
            positions[best] += 1
            if item.sequence < bound { backlog.append(item.change) } else { later.append(item) }
        }
    }
}
