import OpsDashUI
import Testing

@testable import OpsDashUI

/// The fleet list: its frame (snapshots), the selection that follows its app, `/` filtering,
/// Enter on a live and on a departed app.
@Suite struct FleetListTests {
    static let rows = [
        FleetRow(
            id: "/run/a.sock", app: "AppExample", queue: "images", pid: 4242, host: "build-1", running: 3, waiting: 7,
            failed: 0, throughput: [0, 1, 2, 4, 8, 4, 2], viewers: 1, control: true, lastSeenAgo: 0.4),
        FleetRow(
            id: "/run/b.sock", app: "Indexer", queue: "pages", pid: 977, host: "build-1", running: 1, waiting: 0,
            failed: 2, throughput: [3, 3, 3], viewers: 0, control: false, lastSeenAgo: 1),
        FleetRow(
            id: "/run/c.sock", app: "Thumbs", queue: "resize", pid: 5120, host: "build-1", running: 0, waiting: 0,
            failed: 0, throughput: [1, 0], viewers: 0, control: false, lastSeenAgo: 14, departed: true),
        FleetRow(id: "/run/d.sock", app: "Slow", queue: "q", pid: 6001, host: "build-1"),
    ]

    static func state(width: Int = 100, height: Int = 10, glyphs: GlyphSet = .unicode) -> FleetListState {
        var state = FleetListState(width: width, height: height, glyphs: glyphs, keepDeparted: 60)
        _ = reduceFleet(&state, .rows(rows))
        return state
    }

    @Test func theListShowsEveryColumnAndGreysTheDepartedApp() {
        let state = Self.state()
        expectFrame(FleetListView.frame(state), named: "fleet-list-100x10")
        let frame = FleetListView.frame(state)
        let departedRow = (0..<frame.height).first { y in
            (0..<frame.width).map { frame[$0, y].character }.map(String.init).joined().contains("Thumbs/resize")
        }
        #expect(departedRow.map { frame[0, $0].style.dim } == true)
    }

    @Test func narrowAndASCIILeaveOutTheHost() {
        var state = Self.state(width: 80, glyphs: .ascii)
        _ = reduceFleet(&state, .key(.character("/")))
        for character in "dex" { _ = reduceFleet(&state, .key(.character(character))) }
        expectFrame(FleetListView.frame(state), named: "fleet-list-filtering-80x10")
    }

    @Test func theFilterKeepsMatchingRowsAndEscUndoesTheEdit() {
        var state = Self.state()
        _ = reduceFleet(&state, .key(.character("/")))
        for character in "departed" { _ = reduceFleet(&state, .key(.character(character))) }
        _ = reduceFleet(&state, .key(.enter))
        #expect(state.shownRows.map(\.app) == ["Thumbs"])
        #expect(state.selectedRow?.app == "Thumbs", "the selection moves onto what is shown")
        _ = reduceFleet(&state, .key(.character("/")))
        _ = reduceFleet(&state, .key(.character("x")))
        _ = reduceFleet(&state, .key(.escape))
        #expect(state.filter == "departed", "Esc undoes the edit only")
        _ = reduceFleet(&state, .key(.escape))
        #expect(state.filter.isEmpty)
        #expect(state.shownRows.count == 4)
    }

    @Test func enterOpensALiveAppAndRefusesADepartedOne() {
        var state = Self.state()
        #expect(reduceFleet(&state, .key(.enter)) == [.open("/run/a.sock")])
        _ = reduceFleet(&state, .key(.down))
        _ = reduceFleet(&state, .key(.down))
        #expect(reduceFleet(&state, .key(.enter)) == [])
        #expect(state.message == "Thumbs/resize (pid 5120) went away")
        #expect(reduceFleet(&state, .key(.character("q"))) == [.quit])
    }

    @Test func questionMarkShowsTheKeysAndColumnsAndEscClosesIt() {
        var state = Self.state(width: 100, height: 30)
        _ = reduceFleet(&state, .key(.character("?")))
        #expect(state.showHelp)
        let text = FleetListView.frame(state).lines.joined(separator: "\n")
        for binding in FleetKeys.table {
            #expect(text.contains(binding.label.text(.unicode)), "help lacks \(binding.asciiLabel)")
            #expect(text.contains(binding.help.prefix(20)), "help lacks '\(binding.help)'")
        }
        for column in ["DONE/S", "CONTROL", "SEEN", "Columns"] {
            #expect(text.contains(column), "help lacks \(column)")
        }
        expectFrame(FleetListView.frame(state), named: "fleet-help-100x30")
        #expect(reduceFleet(&state, .key(.enter)) == [], "Enter opens nothing under the help")
        _ = reduceFleet(&state, .key(.escape))
        #expect(!state.showHelp)
        _ = reduceFleet(&state, .key(.character("?")))
        _ = reduceFleet(&state, .key(.character("?")))
        #expect(!state.showHelp, "? again closes it")
        _ = reduceFleet(&state, .key(.character("?")))
        #expect(reduceFleet(&state, .key(.character("q"))) == [.quit])
    }

    @Test func theHelpScrollsOnASmallTerminal() {
        var state = Self.state(width: 60, height: 12)
        _ = reduceFleet(&state, .key(.character("?")))
        #expect(FleetListView.frame(state).lines.contains { $0.contains("scroll") })
        _ = reduceFleet(&state, .key(.end))
        #expect(state.helpScroll > 0)
        #expect(FleetListView.frame(state).lines.joined().contains("(listed 60 s more)"), "the last line shows")
        #expect(state.selectedRow?.app == "AppExample", "keys scroll the help, not the list")
        _ = reduceFleet(&state, .key(.home))
        #expect(state.helpScroll == 0)
    }

    @Test func theSelectionFollowsItsAppWhenRowsChange() {
        var state = Self.state()
        _ = reduceFleet(&state, .key(.down))
        #expect(state.selectedRow?.app == "Indexer")
        _ = reduceFleet(&state, .rows(Array(Self.rows.dropFirst())))
        #expect(state.selectedRow?.app == "Indexer")
        _ = reduceFleet(&state, .rows([Self.rows[0]]))
        #expect(state.selectedRow?.app == "AppExample", "its app gone: the first row")
    }

    @Test func theSparklineScalesToItsHighestSample() {
        #expect(FleetListView.sparkline([0, 1, 2, 4, 8], width: 10, glyphs: .unicode) == "▁▂▃▅█")
        #expect(FleetListView.sparkline([5, 5], width: 1, glyphs: .ascii) == "@")
        #expect(FleetListView.sparkline([], width: 10, glyphs: .unicode) == "")
    }
}

/// A host of the hosts file that lists no apps: one row saying why, which Enter does not open.
@Suite struct FleetListHostNoteTests {
    @Test func aHostsNoteIsOneRowWithTheHostAndEnterSaysItInsteadOfOpening() {
        var state = FleetListState(width: 100, height: 6, glyphs: .unicode, keepDeparted: 60)
        let note = "ssh: connect to host db-3 port 22: Connection refused (ssh exit 255)"
        _ = reduceFleet(&state, .rows([FleetRow(id: "ssh db-3", app: "", queue: "", pid: 0, host: "db-3", note: note)]))
        let frame = FleetListView.frame(state)
        let text = (0..<frame.height).map { y in
            (0..<frame.width).map { String(frame[$0, y].character) }.joined()
        }
        #expect(text[2].hasPrefix("db-3: \(note)"), "\(text)")
        #expect(text[0].contains("0 published queues"))
        #expect(reduceFleet(&state, .key(.enter)) == [])
        #expect(state.message == "db-3: \(note)")
    }
}
