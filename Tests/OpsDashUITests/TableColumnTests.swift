import OpsDashUI
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

    @Test func theNameColumnTakesTheSpareWidth() {
        let wide = render(Fixtures.state(Fixtures.midRun(), width: 200, height: 20))
        #expect(wide.lines[4].contains("fetch-manifest.json "))
    }
}
