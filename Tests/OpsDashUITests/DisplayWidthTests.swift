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
        // The name column is 12 wide at 60 columns, cut in the middle: 3 wide characters, the
        // ellipsis, 2 wide characters (the end), a pad where a third would be cut.
        #expect(fitted.contains(" 漢字漢…漢字  ready"), "\(fitted)")
    }
}
