import OpsMonitor
import Testing

@testable import OpsDashUI

/// The state order of a new snapshot reuses the buckets of the chunks it shares with the one
/// before, and lists exactly what a full pass lists.
@Suite struct RankedChunksTests {
    /// Operations per chunk.
    static let size = ChunkedArray<OperationSnapshot>.chunkSize

    /// A store of `count` ready operations.
    static func store(_ count: Int) -> MonitorStore {
        var store = MonitorStore(limits: MonitorStore.Limits(finishedOperations: 10_000))
        for index in 0..<count {
            _ = store.add(
                name: "op-\(index)", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        }
        return store
    }

    static func fullPass(_ snapshot: QueueSnapshot, needle: String = "") -> [Int] {
        RowOrder.sortedIDs(snapshot.operations, sort: .state, needle: needle)
    }

    @Test func aChangeInOneChunkRecomputesOnlyThatChunk() throws {
        // Three chunks, the last partly filled.
        var store = Self.store(3 * Self.size - 12)
        let first = RowOrder.make(
            for: store.snapshot(time: .zero), sort: .state, filter: "", tree: false, failedOnly: false)
        #expect(first.ranked?.chunksComputed == 3)
        // Two operations of the second chunk.
        let (a, b) = (Self.size + 188 % Self.size, Self.size + 189 % Self.size)
        store.transition(a, to: .executing, time: .seconds(1))
        store.transition(b, to: .executing, time: .seconds(1))
        store.transition(b, to: .finished, outcome: .failed, time: .seconds(2))
        let snapshot = store.snapshot(time: .seconds(2))
        let next = RowOrder.make(
            for: snapshot, sort: .state, filter: "", tree: false, failedOnly: false, previous: first)
        #expect(next.ranked?.chunksComputed == 1)
        #expect(next.ids == Self.fullPass(snapshot))
        #expect(next.ids.prefix(2) == [a, 1])
        #expect(next.ids.last == b)
    }

    @Test func aNewFilterOrAnAppendedOperationIsNeverServedFromOldBuckets() throws {
        var store = Self.store(2 * Self.size + 76)
        let first = RowOrder.make(
            for: store.snapshot(time: .zero), sort: .state, filter: "", tree: false, failedOnly: false)
        let filtered = RowOrder.make(
            for: store.snapshot(time: .zero), sort: .state, filter: "op-10", tree: false, failedOnly: false,
            previous: first)
        #expect(filtered.ranked?.chunksComputed == 3)
        #expect(filtered.ids == Self.fullPass(store.snapshot(time: .zero), needle: "op-10"))
        _ = store.add(name: "late", kind: .download, lifecycle: .waiting, totalBytes: 0, dependencies: [], time: .zero)
        let snapshot = store.snapshot(time: .zero)
        let next = RowOrder.make(
            for: snapshot, sort: .state, filter: "", tree: false, failedOnly: false, previous: first)
        #expect(next.ids == Self.fullPass(snapshot))
        #expect(next.ids.last == 2 * Self.size + 77)
    }

    @Test func afterAnEvictionTheOrderIsAFullPassAgain() throws {
        var store = MonitorStore(limits: MonitorStore.Limits(finishedOperations: 10))
        for index in 0..<1_200 {
            _ = store.add(
                name: "op-\(index)", kind: .download, lifecycle: .ready, totalBytes: 10, dependencies: [], time: .zero)
        }
        var rows = RowOrder.make(
            for: store.snapshot(time: .zero), sort: .state, filter: "", tree: false, failedOnly: false)
        for id in 1...600 {
            store.transition(id, to: .executing, time: .seconds(1))
            store.transition(id, to: .finished, outcome: .succeeded, time: .seconds(1))
            let snapshot = store.snapshot(time: .seconds(1))
            rows = RowOrder.make(
                for: snapshot, sort: .state, filter: "", tree: false, failedOnly: false, previous: rows)
            #expect(rows.ids == Self.fullPass(snapshot))
        }
        #expect(store.snapshot(time: .seconds(1)).evictedCount > 0)
    }
}
