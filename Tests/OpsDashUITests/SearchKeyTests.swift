import OpsMonitor
import Testing

@testable import OpsDashUI

/// `/` searches every field shown, `n`/`N` select the next / previous match without hiding rows,
/// and `!` lists only the failed operations.
@Suite struct SearchKeyTests {
    /// A dashboard of the mid-run picture after `/`, `text` and Enter.
    static func searched(_ text: String) -> DashboardState {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("/"))
        state.type(text)
        state.press(.enter)
        return state
    }

    @Test func enterSelectsTheFirstMatchAndNAndShiftNWrapRoundWithoutFiltering() {
        var state = Self.searched("video")
        #expect(state.selectedID == 2)
        #expect(state.message == "1/3 matches for 'video'")
        #expect(state.rows.count(in: state.snapshot) == 12, "a search hides no row")
        state.press(.character("n"))
        #expect(state.selectedID == 3)
        #expect(state.message == "2/3 matches for 'video'")
        state.press(.character("n"))
        #expect(state.selectedID == 7)
        #expect(state.message == "3/3 matches for 'video'")
        state.press(.character("n"))
        #expect(state.selectedID == 2, "n wraps round to the first match")
        state.press(.character("N"))
        #expect(state.selectedID == 7, "N wraps round to the last match")
        #expect(state.message == "3/3 matches for 'video'")
        #expect(render(state).lines[39].hasPrefix("3/3 matches for 'video'"))
    }

    /// The error text, a retry log line and the WHY column are searched too, not only what the
    /// filter matches.
    @Test func searchFindsErrorTextRetryLogAndWhy() {
        #expect(Self.searched("http 503").selectedID == 10)
        #expect(Self.searched("connection reset").selectedID == 2)
        #expect(Self.searched("needs #7").selectedID == 8)
        #expect(Self.searched("slots busy").selectedID == 9)
        #expect(Self.searched("#12").selectedID == 12)
        #expect(Self.searched("cancelled by").selectedID == 11)
    }

    @Test func noMatchSaysSoAndKeepsTheSelection() {
        var state = Self.searched("zzz")
        #expect(state.selectedID == 1)
        #expect(state.message == "no match for 'zzz'")
        state.press(.character("n"))
        #expect(state.message == "no match for 'zzz'")
        state = Fixtures.state(Fixtures.midRun())
        state.press(.character("n"))
        #expect(state.message == "no search: / starts one")
    }

    @Test func escUndoesTheSearchEditAndTheFooterShowsIt() {
        var state = Self.searched("video")
        state.press(.character("/"))
        state.type("tra")
        #expect(state.isEditingSearch)
        #expect(FooterView(state).content == .searchEdit("tra"))
        #expect(state.filter.isEmpty, "typing a search leaves the filter")
        state.press(.escape)
        #expect(!state.isEditingSearch)
        #expect(state.search == "video")
        state.press(.character("n"))
        #expect(state.selectedID == 3)
    }

    @Test func nAfterAFilterSearchesOnlyTheListedRows() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("part")
        state.press(.enter, .character("/"))
        state.type("video")
        state.press(.enter)
        #expect(state.message == "1/2 matches for 'video'")
        #expect(state.selectedID == 2)
    }

    @Test func bangListsOnlyFailedOperationsAndEscClearsIt() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("!"))
        #expect(state.failedOnly)
        #expect(state.rows.count(in: state.snapshot) == 1)
        #expect(state.selectedID == 10)
        #expect(HeaderView(state).failedOnly)
        state.press(.character("!"))
        #expect(state.rows.count(in: state.snapshot) == 12)
        state.press(.character("!"), .character("d"))
        #expect(state.rows.ids == [10], "the tree keeps only the failed one (it has no parent)")
        state.press(.character("d"), .escape)
        #expect(!state.failedOnly)
        #expect(state.rows.count(in: state.snapshot) == 12)
    }

    /// The search's matches are highlighted in every text cell of the rows (here the WHY
    /// column, which the filter does not read), and no longer once the search is cleared.
    @Test func matchesAreHighlightedInTheRowsInAnyColumn() throws {
        var state = Self.searched("slots busy")
        let buffer = render(state)
        let y = try #require((0..<buffer.height).first { buffer.line($0).contains("slots busy") })
        let line = Array(buffer.line(y))
        let start = try #require((0..<(line.count - 10)).first { String(line[$0..<($0 + 10)]) == "slots busy" })
        for x in start..<(start + 10) { #expect(buffer[x, y].style.underline && buffer[x, y].style.bold) }
        #expect(!buffer[start - 1, y].style.underline)
        state.press(.character("/"))
        for _ in 0..<10 { state.press(.backspace) }
        state.press(.enter)
        #expect(!render(state)[start, y].style.underline, "no search, no highlight")
    }
}
