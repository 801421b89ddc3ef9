@testable import OpsDashUI
import OpsMonitor
import Testing

@Suite struct TableColumnTests {
    @Test func narrowTablesDropLessImportantColumnsFirst() {
        let wide = render(Fixtures.state(Fixtures.midRun(), width: 160, height: 20)).lines[3]
        for title in ["ID", "NAME", "STATE", "PROGRESS", "BYTES", "RATE", "ETA", "TIME", "RT"] {
            #expect(wide.contains(title))
        }
        #expect(wide.contains("AFTER") && wide.contains("WHY"))
        let narrow = render(Fixtures.state(Fixtures.midRun(), width: 60, height: 20)).lines[3]
        #expect(narrow == "ID    NAME         STATE     PROGRESS        % WHY")
    }

    @Test func theWaitColumnShowsOnlyWhereTheNameStaysComfortable() {
        let wide = TableColumn.layout(width: 160, maxID: 99).map(\.column)
        #expect(wide.contains(.wait))
        #expect(wide.firstIndex(of: .wait) == wide.firstIndex(of: .elapsed).map { $0 - 1 }, "WAIT comes before TIME")
        let edge = TableColumn.layout(width: 128, maxID: 99)
        #expect(edge.contains { $0.column == .wait } && edge.contains { $0.column == .name && $0.width == 20 })
        let middling = TableColumn.layout(width: 127, maxID: 99).map(\.column)
        #expect(!middling.contains(.wait) && middling.contains(.retries), "every other column still shows")
    }

    @Test func theWaitCellIsAddedToStartedOrSoFar() throws {
        let waited = OperationSnapshot(
            id: 1, name: "a", kind: .download, lifecycle: .executing, addedAt: .seconds(2), startedAt: .seconds(65))
        let waiting = OperationSnapshot(id: 2, name: "b", kind: .download, lifecycle: .ready, addedAt: .seconds(10))
        let lines = render(Fixtures.state(Fixtures.snapshot([waited, waiting], time: .seconds(70)), width: 160)).lines
        let header = lines[3]
        let column = try #require(header.range(of: "WAIT"))
        let end = header.distance(from: header.startIndex, to: column.upperBound)
        #expect(String(lines[4].prefix(end)).hasSuffix(" 1:03"), "\(lines[4])")
        #expect(String(lines[5].prefix(end)).hasSuffix(" 1:00"), "\(lines[5])")
    }

    @Test func theNameColumnTakesTheSpareWidth() {
        let wide = render(Fixtures.state(Fixtures.midRun(), width: 200, height: 20))
        #expect(wide.lines[4].contains("fetch-manifest.json "))
    }
}
