import Testing

@testable import OpsMonitor

/// `ChunkedArray.position(ofID:)` (a store's and a picture's lookup) bounds where an id can be by
/// the oldest and newest ids, then halves: it finds each listed id where it is, and no other,
/// whatever the ids (a peer's may be anything).
@Suite struct SnapshotPositionTests {
    @Test func findsEveryListedIDWithGapsAndNoOther() {
        let lists = [
            [Int](), [1], [1, 2, 3, 4], [3, 4, 5], [1, 2, 5, 9, 10, 11, 40], [-3, 0, 7], [2, 4, 6, 8],
            [Int.min, 0, Int.max], [Int.min, Int.min + 1, Int.max - 1, Int.max], Array(1...300) + [1_000],
        ]
        for ids in lists {
            let operations = ChunkedArray(ids.map { OperationSnapshot(id: $0, name: "op") })
            let snapshot = QueueSnapshot(operations: operations)
            for (position, id) in ids.enumerated() {
                #expect(snapshot.position(ofID: id) == position, "\(id) in \(ids.prefix(12))")
                #expect(snapshot.operation(id: id)?.id == id, "\(id) in \(ids.prefix(12))")
            }
            for id in [-5, -1, 6, 12, 39, 41, 301, 999, Int.max, Int.min] where !ids.contains(id) {
                #expect(snapshot.position(ofID: id) == nil, "\(id) in \(ids.prefix(12))")
            }
        }
    }

    /// Rows out of id order (a hostile peer's picture) give wrong answers at worst, never a trap.
    @Test func rowsOutOfOrderNeverTrap() {
        for ids in [[5, 3, 9], [Int.max, Int.min], [7, 7, 7], [0, Int.max, Int.min, 1]] {
            let operations = ChunkedArray(ids.map { OperationSnapshot(id: $0, name: "op") })
            for id in ids + [Int.min, -1, 0, 4, Int.max] {
                if let position = operations.position(ofID: id) {
                    #expect(operations[position].id == id, "\(id) in \(ids)")
                }
            }
        }
    }
}
