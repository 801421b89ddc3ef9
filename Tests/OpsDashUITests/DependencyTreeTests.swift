import OpsDashUI
import OpsMonitor
import Testing

@Suite struct DependencyTreeTests {
    private func tree(_ operations: [OperationSnapshot]) -> RowOrder {
        RowOrder.make(for: Fixtures.snapshot(operations), sort: .id, filter: "", tree: true)
    }

    private func op(_ id: Int, after dependencies: [Int] = []) -> OperationSnapshot {
        OperationSnapshot(id: id, name: "op-\(id)", dependencies: dependencies)
    }

    @Test func rootsFirstAndEachOperationUnderItsFirstDependency() {
        let rows = tree([op(1), op(2), op(3, after: [1]), op(4, after: [2, 1]), op(5, after: [3])])
        #expect(rows.ids == [1, 3, 5, 2, 4])
        #expect(rows.alsoAfter == [[], [], [], [], [1]])
        #expect(rows.guides.map(\.count) == [1, 2, 3, 1, 2])
    }

    @Test func everyOperationAppearsExactlyOnce() {
        let operations = (1...50).map { id in op(id, after: id > 2 ? [id - 1, id - 2] : []) }
        let rows = tree(operations)
        #expect(rows.ids.sorted() == Array(1...50))
    }

    @Test func anEvictedDependencyMakesARoot() {
        let rows = tree([op(5, after: [1]), op(6, after: [5])])
        #expect(rows.ids == [5, 6])
        #expect(rows.guides[0].count == 1)
    }

    @Test func aCycleStillListsEveryOperation() {
        let rows = tree([op(1, after: [2]), op(2, after: [1]), op(3)])
        #expect(rows.ids.sorted() == [1, 2, 3])
    }

    @Test func aLongChainDoesNotOverflowTheStack() {
        let operations = (1...20_000).map { op($0, after: $0 > 1 ? [$0 - 1] : []) }
        let rows = tree(operations)
        #expect(rows.ids.count == 20_000)
        #expect(rows.ids.last == 20_000)
    }
}
