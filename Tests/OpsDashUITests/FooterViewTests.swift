import Testing

@testable import OpsDashUI

/// The footer as a widget: it draws only what it was given, only inside its area.
@Suite struct FooterViewTests {
    private func lines(_ buffer: CellBuffer) -> [String] {
        (0..<buffer.height).map { buffer.line($0) }
    }

    @Test func drawsOnlyInsideItsArea() {
        var buffer = CellBuffer(width: 40, height: 3)
        let hints: [FooterView.Hint] = [
            .init(key: "q", word: "quit"), .init(key: "?", word: "help"), .init(key: "d", word: "deps"),
        ]
        let footer = FooterView(content: .hints(hints), position: "3/9")
        footer.render(into: &buffer, area: Rect(x: 5, y: 1, width: 20, height: 1))
        let rows = lines(buffer)
        #expect(rows[0].allSatisfy { $0 == " " })
        #expect(rows[2].allSatisfy { $0 == " " })
        // 20 columns: "3/9" at the right edge, hints in the 16 left of a gap: two whole pairs.
        let blank = { (count: Int) in String(repeating: " ", count: count) }
        #expect(rows[1] == blank(5) + "q quit ? help    3/9" + blank(15))
    }

    @Test func anEmptyAreaDrawsNothing() {
        var buffer = CellBuffer(width: 10, height: 2)
        FooterView(content: .message("hello"), position: "0/0")
            .render(into: &buffer, area: Rect(x: 0, y: 0, width: 10, height: 0))
        #expect(lines(buffer).allSatisfy { $0.allSatisfy { $0 == " " } })
    }

    @Test func takesFromTheStateWhatItShows() {
        var state = DashboardState(width: 80, height: 24)
        #expect(FooterView(state).position == "0/0")
        guard case .hints(let hints) = FooterView(state).content else {
            Issue.record("no hints")
            return
        }
        #expect(hints.first == .init(key: "q", word: "quit"))
        #expect(hints.contains(.init(key: "s", word: "sort:id")))
        state.message = "nothing selected to cancel"
        #expect(FooterView(state).content == .message("nothing selected to cancel"))
        state.message = nil
        state.isEditingFilter = true
        state.filter = "dl"
        #expect(FooterView(state).content == .filterEdit("dl"))
    }
}
