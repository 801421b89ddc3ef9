import OpsMonitor

/// The state order (`SortOrder.state`) of a snapshot's operations, kept chunk by chunk of its
/// `ChunkedArray`: each chunk's matching ids in its six rank buckets. The order is the buckets
/// rank by rank, chunk after chunk, which is the stable bucket pass over all operations.
///
/// The next snapshot shares every chunk the store did not change since (`sharesChunk`), and only
/// the others are bucketed again: a busy frame changes one or two chunks of 512 operations, so
/// the order costs what changed plus copying the ids, not reading every operation again.
struct RankedChunks: Sendable {
    /// The operations the buckets were computed from (kept alive, so their chunks can be
    /// compared with a later snapshot's).
    let operations: ChunkedArray<OperationSnapshot>
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
        let size = ChunkedArray<OperationSnapshot>.chunkSize
        let filtering = !needle.isEmpty || failedOnly
        var buckets: [[[Int]]] = []
        buckets.reserveCapacity(operations.chunkCount)
        var computed = 0
        for chunk in 0..<operations.chunkCount {
            if let usable, operations.sharesChunk(chunk, with: usable.operations) {
                buckets.append(usable.buckets[chunk])
                continue
            }
            computed += 1
            var ranked: [[Int]] = Array(repeating: [], count: Self.ranks)
            for index in (chunk * size)..<min(operations.count, (chunk + 1) * size)
            where !filtering || RowOrder.matches(operations[index], needle, failedOnly: failedOnly) {
                let rank = DisplayState(operations[index].lifecycle, operations[index].outcome).sortRank
                ranked[rank].append(operations[index].id)
            }
            buckets.append(ranked)
        }
        var ids: [Int] = []
        ids.reserveCapacity(operations.count)
        for rank in 0..<Self.ranks {
            for chunk in buckets { ids.append(contentsOf: chunk[rank]) }
        }
        self.operations = operations
        self.needle = needle
        self.failedOnly = failedOnly
        self.buckets = buckets
        self.ids = ids
        self.chunksComputed = computed
    }
}

extension RankedChunks: Equatable {
    /// Always equal: how an order was computed is not part of what it is (`RowOrder`'s
    /// equality compares the rows it lists).
    static func == (lhs: RankedChunks, rhs: RankedChunks) -> Bool { true }
}
