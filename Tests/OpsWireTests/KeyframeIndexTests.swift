import Testing

@testable import OpsMonitor
@testable import OpsWire

/// A keyframe read line by line builds its store as its operation lines come in
/// (`MonitorStore.KeyframeIndex`): its last line goes through none of its operations (a replay
/// looks at the clock between lines, so no frame waits for 200,000 of them at once), and the
/// store is the one the whole snapshot builds.
@Suite struct KeyframeIndexTests {
    /// 2,500 operations: 2,400 finished at times out of order, with ties (more finishes than
    /// twice `RecentTimings.capacity`), 100 still waiting.
    static func snapshot() -> QueueSnapshot {
        var store = MonitorStore(limits: .init(finishedOperations: 5_000))
        for index in 0..<2_500 {
            let id = store.add(
                name: "op\(index)", kind: index % 3 == 0 ? .download : .process, lifecycle: .ready, totalBytes: 0,
                dependencies: [], time: .milliseconds(Int64(index)))
            guard index < 2_400 else { continue }
            let finish = Duration.milliseconds(10_000 + Int64((index * 7_919) % 1_700))
            store.transition(id, to: .executing, time: finish - .milliseconds(Int64(index % 50)))
            store.transition(id, to: .finished, outcome: .succeeded, time: finish)
        }
        return store.snapshot(time: .seconds(20))
    }

    /// The builder after each of `snapshot`'s keyframe lines, and the work each line did.
    static func read(_ snapshot: QueueSnapshot) throws -> (EventSnapshotBuilder, [Int]) {
        var builder = EventSnapshotBuilder(limits: .init(finishedOperations: 5_000))
        let decoder = JSONLinesDecoder()
        var work: [Int] = []
        for line in KeyframeEncoder.lines(snapshot, seq: 9).split(separator: "\n") {
            try builder.apply(try decoder.decode(line).line)
            work.append(builder.lastLineWork)
        }
        return (builder, work)
    }

    @Test func theLastLineGoesThroughNoneOfTheOperations() throws {
        let snapshot = Self.snapshot()
        let (builder, work) = try Self.read(snapshot)
        #expect(builder.snapshot().operations.count == 2_500)
        #expect(work.max() == 1, "a line went through \(work.max() ?? 0) operations")
        #expect(work.last == 0)

        // Loaded whole, the same picture goes through all of them at once.
        var whole = EventSnapshotBuilder(limits: .init(finishedOperations: 5_000))
        whole.load(snapshot)
        #expect(whole.lastLineWork == 2_500)
    }

    @Test func theStoreIsTheOneTheWholeSnapshotBuilds() throws {
        let snapshot = Self.snapshot()
        var (builder, _) = try Self.read(snapshot)
        let built = builder.snapshot()
        #expect(built.operations.map(\.id) == snapshot.operations.map(\.id))
        #expect(built.counts == snapshot.counts)

        // The newest 1,000 finishes by time, oldest first, ties in operation order.
        var expected = RecentTimings()
        let finished = snapshot.operations.filter { $0.startedAt != nil && $0.finishedAt != nil }
        for op in finished.sorted(by: { ($0.finishedAt ?? .zero) < ($1.finishedAt ?? .zero) })
            .suffix(RecentTimings.capacity)
        {
            if let started = op.startedAt, let ended = op.finishedAt {
                expected.record(kind: op.kind, wait: started - op.addedAt, run: ended - started)
            }
        }
        #expect(built.recentTimings == expected)

        // Ids find their operations, and the next one added gets the next id.
        builder.apply(.state(time: .seconds(21), id: 2_450, from: .ready, to: .executing, outcome: nil, message: nil))
        builder.apply(
            .added(time: .seconds(21), id: 2_501, name: "new", kind: .process, totalBytes: 0, dependencies: []))
        builder.apply(.state(time: .seconds(21), id: 2_501, from: nil, to: .ready, outcome: nil, message: nil))
        let after = builder.snapshot()
        #expect(after.operation(id: 2_450)?.lifecycle == .executing)
        #expect(after.operation(id: 2_501)?.name == "new")
        #expect(after.counts.executing == 1)
        #expect(after.counts.total == 2_501)
    }
}
