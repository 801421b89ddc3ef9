import Testing
@testable import OpsMonitor

/// The store finds a row by id in its id-ordered rows (no id → position table): every held id,
/// whatever eviction took from the middle, and none that is not held.
@Suite struct MonitorStorePositionTests {
    @Test func everyKeptRowIsFoundAfterEvictionsTookRowsBetweenThem() {
        var store = MonitorStore(limits: .init(finishedOperations: 10))
        var unfinished: [Int] = []
        for index in 0..<600 {
            let id = store.add(
                name: "op\(index)", kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
            // Every third stays unfinished: evictions leave gaps between kept rows, so a row's
            // distance from the newest no longer follows its id.
            if index % 3 == 0 {
                unfinished.append(id)
            } else {
                store.transition(id, to: .finished, outcome: .succeeded, time: .zero)
            }
        }
        #expect(store.evictedCount > 0)
        let held = Set(store.operations.map(\.id))
        for id in -2...605 {
            #expect(store.operation(id: id)?.id == (held.contains(id) ? id : nil), "id \(id)")
        }
        // Changes reach the right rows after the evictions.
        for id in unfinished { store.transition(id, to: .executing, time: .seconds(1)) }
        #expect(store.operations.filter { $0.lifecycle == .executing }.map(\.id) == unfinished)
        #expect(store.counts.executing == unfinished.count)
    }

    @Test func aPictureWithRowsOutOfIDOrderMakesAStoreInIDOrder() {
        var source = MonitorStore()
        for index in 0..<5 {
            _ = source.add(
                name: "op\(index)", kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        }
        var picture = source.snapshot(time: .zero)
        let rows = Array(picture.operations)
        picture.operations = ChunkedArray([rows[3], rows[0], rows[4], rows[1], rows[2]])
        var store = MonitorStore(snapshot: picture, limits: .init(), version: 1)
        #expect(store.operations.map(\.id) == [1, 2, 3, 4, 5])
        store.transition(4, to: .executing, time: .seconds(1))
        #expect(store.operation(id: 4)?.lifecycle == .executing)
        #expect(store.operation(id: 3)?.lifecycle == .ready)
    }
}
