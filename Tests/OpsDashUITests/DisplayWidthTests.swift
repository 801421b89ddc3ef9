import OpsDashUI
import OpsMonitor
import Testing

/// Columns per grapheme cluster, and text laid out by columns.
@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("~", 1), ("é", 1), ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0),
        ("\u{200D}", 0), ("漢", 2), ("한", 2), ("ｱ", 1), ("Ａ", 2), ("→", 1), ("…", 1), ("█", 1),
        ("👍", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤", 1), ("❤️", 2), ("1️⃣", 2),
        ("☺︎", 1), ("ก่", 1),
    ])
    func widthOfOneCharacter(_ text: String, _ columns: Int) throws {
        let character = try #require(text.count == 1 ? text.first : nil, "one grapheme: \(text)")
        #expect(DisplayWidth.of(character) == columns, "\(text)")
    }

    @Test func widthOfText() {
        #expect(DisplayWidth.of("plain ascii") == 11)
        #expect(DisplayWidth.of("漢字 abc") == 8)
        #expect(DisplayWidth.of("🇯🇵 flag👨‍👩‍👧") == 9)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
    }

    @Test func prefixNeverCutsAWideCharacter() {
        #expect(DisplayWidth.prefix("漢字漢字", columns: 5) == ("漢字", 4))
        #expect(DisplayWidth.prefix("a漢字", columns: 2) == ("a", 1))
        #expect(DisplayWidth.prefix("abc", columns: 0) == ("", 0))
    }

    @Test func fitClipsByColumnsAndPadsWhereAWideCharacterWouldBeCut() {
        let fitted = render(
            Fixtures.state(
                Fixtures.snapshot([
                    OperationSnapshot(id: 1, name: "漢字漢字漢字漢字漢字漢字漢字")
                ]), width: 60, height: 12)
        ).lines[4]
        // The name column is 12 wide at 60 columns: 5 wide characters, a pad, the ellipsis.
        #expect(fitted.contains(" 漢字漢字漢 … "), "\(fitted)")
    }
}

@Suite struct WideCellTests {
    @Test func aWideCharacterTakesALeadAndAContinuationCell() {
        var buffer = CellBuffer(width: 6, height: 1)
        let end = buffer.write("a漢b", x: 0, y: 0)
        #expect(end == 4)
        #expect(buffer[1, 0].width == 2 && buffer[1, 0].character == "漢")
        #expect(buffer[2, 0].isContinuation)
        #expect(buffer[3, 0].character == "b")
        #expect(buffer.lines == ["a漢b"])
    }

    @Test func halfAWideCharacterIsNeverWrittenAtTheEdge() {
        var buffer = CellBuffer(width: 5, height: 2)
        buffer.write("ab漢字", x: 0, y: 0)
        #expect(buffer.line(0) == "ab漢 ")
        #expect(!buffer[4, 0].isContinuation && buffer[4, 0].width == 1)
        buffer.write("漢字", x: 0, y: 1, maxWidth: 3)
        #expect(buffer.line(1) == "漢   ")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.write("漢字漢", x: 0, y: 0)
        buffer.write("x", x: 1, y: 0)  // the right half of 漢
        #expect(buffer.line(0) == " x字漢")
        buffer.write("y", x: 2, y: 0)  // the left half of 字
        #expect(buffer.line(0) == " xy 漢")
        buffer.write("字", x: 3, y: 0)  // straddles the blank and 漢's left half
        #expect(buffer.line(0) == " xy字 ")
        #expect(buffer[5, 0].width == 1)
        buffer[4, 0] = Cell("z")
        #expect(buffer.line(0) == " xy z ")
    }

    @Test func zeroWidthCharactersAreDroppedAndCombiningMarksStayWithTheirBase() {
        var buffer = CellBuffer(width: 8, height: 1)
        buffer.write("\u{301}a\u{200B}e\u{301}", x: 0, y: 0)
        #expect(buffer.line(0) == "ae\u{301}      ")
    }

    @Test func fillOverHalfAWideCharacterLeavesNoHalf() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.write("漢字漢", x: 0, y: 0)
        buffer.fill(x: 1, y: 0, width: 2, height: 1, with: Cell("-"))
        #expect(buffer.line(0) == " -- 漢")
    }
}
