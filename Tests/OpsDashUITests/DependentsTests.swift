import OpsMonitor
import Testing

@testable import OpsDashUI

/// `Dependents.transitive`: everything that depends on an operation, directly or not.
@Suite struct DependentsTests {
    static func snapshot(_ edges: [Int: [Int]], count: Int) -> QueueSnapshot {
        Fixtures.snapshot(
            (1...count).map { OperationSnapshot(id: $0, name: "op-\($0)", dependencies: edges[$0] ?? []) })
    }

    @Test func aChainAndADiamond() {
        // 2 and 3 after 1; 4 after 2 and 3; 5 after 4; 6 on its own.
        let snapshot = Self.snapshot([2: [1], 3: [1], 4: [2, 3], 5: [4]], count: 6)
        #expect(Dependents.transitive(of: 1, in: snapshot) == [2, 3, 4, 5])
        #expect(Dependents.transitive(of: 3, in: snapshot) == [4, 5])
        #expect(Dependents.transitive(of: 5, in: snapshot) == [])
        #expect(Dependents.transitive(of: 6, in: snapshot) == [])
        #expect(Dependents.transitive(of: 99, in: snapshot) == [], "an id not in the picture")
    }

    /// A cycle (a peer's picture may hold one) ends the walk; the operation itself is never its
    /// own dependent.
    @Test func aCycleOrASelfDependencyEndsTheWalk() {
        let cycle = Self.snapshot([1: [3], 2: [1], 3: [2], 4: [4, 3]], count: 4)
        #expect(Dependents.transitive(of: 1, in: cycle) == [2, 3, 4])
        #expect(Dependents.transitive(of: 4, in: cycle) == [])
    }

    @Test func aLongChainDoesNotRecurse() {
        let count = 50_000
        let edges = Dictionary(uniqueKeysWithValues: (2...count).map { ($0, [$0 - 1]) })
        #expect(Dependents.transitive(of: 1, in: Self.snapshot(edges, count: count)).count == count - 1)
    }
}
