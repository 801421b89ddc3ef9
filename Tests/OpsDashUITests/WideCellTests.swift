import OpsDashUI
import OpsMonitor
import Testing

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
