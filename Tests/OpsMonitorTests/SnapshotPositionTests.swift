import Testing

@testable import OpsMonitor

/// `QueueSnapshot.position(ofID:)` looks where an id would be with no gap before it first, then
/// halves: either way it finds each listed id where it is, and no other.
@Suite struct SnapshotPositionTests {
    @Test func findsEveryListedIDWithGapsAndNoOther() {
        for ids in [[Int](), [1], [1, 2, 3, 4], [3, 4, 5], [1, 2, 5, 9, 10, 11, 40], [-3, 0, 7], [2, 4, 6, 8]] {
            let operations = ChunkedArray(ids.map { OperationSnapshot(id: $0, name: "op") })
            let snapshot = QueueSnapshot(operations: operations)
            for (position, id) in ids.enumerated() {
                #expect(snapshot.position(ofID: id) == position, "\(id) in \(ids)")
                #expect(snapshot.operation(id: id)?.id == id, "\(id) in \(ids)")
            }
            for id in [-5, -1, 6, 12, 39, 41, Int.max, Int.min] where !ids.contains(id) {
                #expect(snapshot.position(ofID: id) == nil, "\(id) in \(ids)")
            }
        }
    }
}
