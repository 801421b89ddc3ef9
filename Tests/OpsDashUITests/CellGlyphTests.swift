import Testing

@testable import OpsDashUI

/// A cell keeps its grapheme as a number: one-scalar graphemes as themselves, others in a
/// bounded table.
@Suite struct CellGlyphTests {
    @Test func everyKindOfGraphemeComesBackAsItWas() {
        let graphemes: [Character] = ["a", " ", "█", "界", "🙂", "🇫🇷", "e\u{301}", "👩‍💻", "\r\n"]
        for grapheme in graphemes {
            #expect(Cell(grapheme).character == grapheme, "\(grapheme.unicodeScalars.map(\.value))")
        }
        // Cells compare by number: a decomposed é and a precomposed one differ (the frame's
        // diff then redraws one cell more; the terminal shows the same).
        #expect(Cell("e\u{301}") != Cell("é"))
        #expect(Cell("🇫🇷") != Cell("🇩🇪"))
    }

    @Test func aFullTableGivesTheReplacementCharacterAndKeepsWhatItHas() {
        let glyphs = CellGlyph(capacity: 2)
        let flag = glyphs.code(for: "🇫🇷")
        let accent = glyphs.code(for: "e\u{301}")
        #expect(glyphs.code(for: "🇩🇪") == CellGlyph.replacement)
        #expect(glyphs.character(for: flag) == "🇫🇷")
        #expect(glyphs.character(for: accent) == "e\u{301}")
        #expect(glyphs.code(for: "🇫🇷") == flag, "a known grapheme keeps its number")
        #expect(glyphs.code(for: "x") == 0x78, "single scalars never use the table")
        #expect(glyphs.character(for: CellGlyph.firstTableCode + 99) == "\u{FFFD}", "an unknown number")
    }
}
