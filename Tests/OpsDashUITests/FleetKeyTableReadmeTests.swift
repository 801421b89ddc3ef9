import Testing

@testable import OpsDashUI

/// The README's fleet key table and `FleetKeys.table` list the same keys.
@Suite struct FleetKeyTableReadmeTests {
    @Test func readmeFleetKeyTableListsExactlyTheBoundKeys() throws {
        let cells = try KeyTableReadmeTests.readmeKeyColumn(from: "\n| fleet key |", to: "\n\n")
        #expect(cells.count >= 5, "README fleet key table not found")
        var listed = Set<Key>()
        for cell in cells { listed.formUnion(try KeyTableReadmeTests.keys(inCell: cell)) }
        let bound = Set(FleetKeys.table.flatMap(\.boundKeys))
        for key in bound.subtracting(listed) { Issue.record("README's fleet key table misses \(key)") }
        for key in listed.subtracting(bound) { Issue.record("README's fleet key table lists unbound \(key)") }
    }
}
