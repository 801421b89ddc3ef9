import OpsDashUI
import OpsMonitor
import Testing

/// `/` edits the filter in place and matches are highlighted; the dependency view follows the
/// filter and the sort and folds deep indentation.
@Suite struct FilterInPlaceTests {
    @Test func slashEditsTheCurrentFilter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        state.press(.enter)
        #expect(state.filter == "video")
        state.press(.character("f"))
        #expect(state.filter == "video", "/ keeps the filter to edit")
        state.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        state.type("part-2")
        state.press(.enter)
        #expect(state.filter == "part-2")
        #expect(state.rows.count(in: state.snapshot) == 2)
    }

    @Test func escUndoesTheEditAndEscAgainClearsTheFilter() {
        var state = Fixtures.state(Fixtures.midRun())
        state.press(.character("f"))
        state.type("video")
        state.press(.enter, .character("f"))
        state.type("xyz")
        state.press(.escape)
        #expect(state.filter == "video" && !state.isEditingFilter)
        state.press(.escape)
        #expect(state.filter.isEmpty)
    }

    @Test func matchesAreHighlightedInRows() throws {
        var state = Fixtures.state(Fixtures.midRun(), width: 100, height: 12)
        state.press(.character("f"))
        state.type("PART")
        state.press(.enter)
        let buffer = render(state)
        let line = Array(buffer.line(4))
        let start = try #require((0..<(line.count - 4)).first { String(line[$0..<($0 + 4)]) == "part" })
        for x in start..<(start + 4) {
            #expect(buffer[x, 4].style.underline && buffer[x, 4].style.bold)
        }
        #expect(!buffer[start - 1, 4].style.underline)
        #expect(!buffer[start + 4, 4].style.underline)
        expectFrame(buffer, named: "filter-highlight-100x12")
    }
}
