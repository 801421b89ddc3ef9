import Foundation
import Testing

@testable import OpsDashUI

/// The README's fleet key table and `FleetKeys.table` list the same keys.
@Suite struct FleetKeyTableReadmeTests {
    /// The first column of each row of the README's table headed "| fleet key |".
    static func readmeKeyColumn() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = readme.components(separatedBy: "\n| fleet key |").dropFirst().first ?? ""
        let table = section.components(separatedBy: "\n\n").first ?? ""
        return table.split(separator: "\n")
            .filter { $0.hasPrefix("|") && !$0.hasPrefix("|---") }
            .compactMap { $0.split(separator: "|", omittingEmptySubsequences: true).first }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func readmeFleetKeyTableListsExactlyTheBoundKeys() throws {
        let cells = try Self.readmeKeyColumn()
        #expect(cells.count >= 5, "README fleet key table not found")
        var listed = Set<Key>()
        for cell in cells { listed.formUnion(try KeyTableReadmeTests.keys(inCell: cell)) }
        let bound = Set(FleetKeys.table.flatMap(\.boundKeys))
        for key in bound.subtracting(listed) { Issue.record("README's fleet key table misses \(key)") }
        for key in listed.subtracting(bound) { Issue.record("README's fleet key table lists unbound \(key)") }
    }
}
