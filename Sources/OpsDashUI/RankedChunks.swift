import OpsMonitor

/// The state order (`SortOrder.state`) of a snapshot's operations, kept chunk by chunk of its
/// `ChunkedArray`: each chunk's matching ids in its six rank buckets. The order is the buckets
/// rank by rank, chunk after chunk, which is the stable bucket pass over all operations.
///
/// A chunk of the next snapshot whose stamp is the one it had here (`ChunkedArray.chunkStamps`)
/// holds the same operations, and only the others are bucketed again: a busy frame changes one
/// or two chunks, so the order costs what changed plus copying the ids, not reading every
/// operation again. The stamps are kept, not the operations: holding the chunks would make the
/// store copy each one it changes next.
struct RankedChunks: Sendable {
    /// The stamps of the chunks the buckets were computed from.
    let stamps: [UInt64]
    let needle: String
    let failedOnly: Bool
    /// Per chunk, per rank, the matching ids in chunk order.
    let buckets: [[[Int]]]
    /// The order: every chunk's rank-0 ids, then every chunk's rank-1 ids, and so on.
    let ids: [Int]
    /// Chunks bucketed again (not reused) when this order was made.
    let chunksComputed: Int

    static let ranks = 6

    init(
        _ operations: ChunkedArray<OperationSnapshot>, needle: String, failedOnly: Bool, reusing previous: RankedChunks?
    ) {
        let usable = previous.flatMap { $0.needle == needle && $0.failedOnly == failedOnly ? $0 : nil }
        // Taken out once: binding the optional order in the loop copied it for every chunk.
        let reusable = usable != nil
        let previousStamps = usable?.stamps ?? []
        let stamps = operations.chunkStamps
        let previousBuckets = usable?.buckets ?? []
        let size = ChunkedArray<OperationSnapshot>.chunkSize
        var buckets: [[[Int]]] = []
        buckets.reserveCapacity(operations.chunkCount)
        var computed = 0
        for chunk in 0..<operations.chunkCount {
            if reusable, chunk < previousStamps.count, stamps[chunk] == previousStamps[chunk] {
                buckets.append(previousBuckets[chunk])
                continue
            }
            computed += 1
            let range = (chunk * size)..<min(operations.count, (chunk + 1) * size)
            buckets.append(Self.bucketed(operations, range, needle: needle, failedOnly: failedOnly))
        }
        var ids: [Int] = []
        ids.reserveCapacity(operations.count)
        for rank in 0..<Self.ranks {
            // By index: each chunk's buckets read in place, not copied.
            for chunk in buckets.indices { ids.append(contentsOf: buckets[chunk][rank]) }
        }
        self.stamps = stamps
        self.needle = needle
        self.failedOnly = failedOnly
        self.buckets = buckets
        self.ids = ids
        self.chunksComputed = computed
    }
}

extension RankedChunks {
    /// The matching ids of `operations[range]` in their rank buckets, in order: the ranks found
    /// first, then each bucket made at its size (no bucket grown an element at a time).
    private static func bucketed(
        _ operations: ChunkedArray<OperationSnapshot>, _ range: Range<Int>, needle: String, failedOnly: Bool
    ) -> [[Int]] {
        let filtering = !needle.isEmpty || failedOnly
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: range.count + ranks) { scratch in
            // The first `range.count` places: each operation's rank (-1: not matching); then
            // the count of each rank.
            let counted = range.count
            for rank in 0..<ranks { scratch[counted + rank] = 0 }
            for (offset, index) in range.enumerated() {
                guard !filtering || RowOrder.matches(operations[index], needle, failedOnly: failedOnly) else {
                    scratch[offset] = -1
                    continue
                }
                let rank = DisplayState(operations[index].lifecycle, operations[index].outcome).sortRank
                scratch[offset] = rank
                scratch[counted + rank] += 1
            }
            var ranked: [[Int]] = []
            ranked.reserveCapacity(ranks)
            for rank in 0..<ranks {
                var bucket: [Int] = []
                bucket.reserveCapacity(scratch[counted + rank])
                ranked.append(bucket)
            }
            for (offset, index) in range.enumerated() where scratch[offset] >= 0 {
                ranked[scratch[offset]].append(operations[index].id)
            }
            return ranked
        }
    }
}

extension RankedChunks: Equatable {
    /// Always equal: how an order was computed is not part of what it is (`RowOrder`'s
    /// equality compares the rows it lists).
    static func == (lhs: RankedChunks, rhs: RankedChunks) -> Bool { true }
}
