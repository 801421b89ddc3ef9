extension MonitorStore {
    /// What a store built from a keyframe derives from its operations (the finished ones, the newest finish, the next id, the newest finish timings), gathered one
    /// operation at a time: a replay adds each as its keyframe line is read, so the keyframe's
    /// last line builds the store without going through its operations again (for 200,000
    /// queued operations that pass alone took 74–154 ms in one frame).
    package struct KeyframeIndex: Sendable {
        /// A finish with both times, for `RecentTimings`.
        private struct Finish: Sendable {
            var finishedAt: Duration
            var kind: OperationKind
            var wait: Duration
            var run: Duration
        }

        /// Operations indexed so far.
        package private(set) var count = 0
        var finishedInStore = 0
        var lastFinishedAt: Duration = .zero
        var nextID = 1
        /// The newest finishes in the order the operations came, at most twice
        /// `RecentTimings.capacity` (then the oldest by finish time are dropped).
        private var finishes: [Finish] = []

        package init() {}

        /// The index of `operations`, built in one pass.
        init(_ operations: ChunkedArray<OperationSnapshot>) {
            for op in operations { add(op) }
        }

        /// Whether every id is above the one before it (what `ChunkedArray.position(ofID:)` needs).
        static func isInIDOrder(_ operations: ChunkedArray<OperationSnapshot>) -> Bool {
            var previous = Int.min
            for position in operations.indices {
                let id = operations.withElement(at: position) { $0.id }
                guard id > previous else { return false }
                previous = id
            }
            return true
        }

        /// `operations` sorted by id, the last of a repeated id kept.
        static func inIDOrder(_ operations: ChunkedArray<OperationSnapshot>) -> ChunkedArray<OperationSnapshot> {
            var sorted: [OperationSnapshot] = []
            for op in operations.enumerated().sorted(by: { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) })
                .map(\.element)
            {
                if sorted.last?.id == op.id { sorted.removeLast() }
                sorted.append(op)
            }
            return ChunkedArray(sorted)
        }

        /// Indexes the keyframe's next operation (at position `count`). O(1) amortized.
        package mutating func add(_ op: OperationSnapshot) {
            count += 1
            if op.lifecycle == .finished { finishedInStore += 1 }
            if let finished = op.finishedAt { lastFinishedAt = max(lastFinishedAt, finished) }
            nextID = max(nextID, op.id + 1)
            if let started = op.startedAt, let finished = op.finishedAt {
                finishes.append(
                    Finish(finishedAt: finished, kind: op.kind, wait: started - op.addedAt, run: finished - started))
                if finishes.count >= 2 * RecentTimings.capacity { keepNewestFinishes() }
            }
        }

        /// Keeps the `RecentTimings.capacity` newest finishes, oldest first (ties in the order
        /// the operations came: the sort is stable).
        private mutating func keepNewestFinishes() {
            finishes = Array(finishes.sorted { $0.finishedAt < $1.finishedAt }.suffix(RecentTimings.capacity))
        }

        /// The newest finishes' timings, oldest first: the window a keyframe's store starts with.
        func recentTimings() -> RecentTimings {
            var timings = RecentTimings()
            for finish in finishes.sorted(by: { $0.finishedAt < $1.finishedAt }).suffix(RecentTimings.capacity) {
                timings.record(kind: finish.kind, wait: finish.wait, run: finish.run)
            }
            return timings
        }
    }
}
