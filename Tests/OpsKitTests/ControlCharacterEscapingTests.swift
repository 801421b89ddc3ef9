import Testing

import OpsKit

/// Text printed in one-line messages cannot split the line or reach the terminal as escapes.
struct ControlCharacterEscapingTests {
    @Test func controlCharactersBecomeVisibleEscapes() {
        #expect(ControlCharacterEscaping.escape("a\nb\r\tc") == #"a\nb\r\tc"#)
        #expect(ControlCharacterEscaping.escape("\u{1B}[31mred\u{7}") == #"\u{1B}[31mred\u{7}"#)
        #expect(ControlCharacterEscaping.escape("\u{0}\u{7F}\u{85}\u{9B}") == #"\u{0}\u{7F}\u{85}\u{9B}"#)
    }

    @Test func bidiControlsAndSeparatorsAreEscaped() {
        #expect(ControlCharacterEscaping.escape("abc\u{202E}gpj.exe") == #"abc\u{202E}gpj.exe"#)
        #expect(ControlCharacterEscaping.escape("\u{2066}x\u{2069}\u{2028}") == #"\u{2066}x\u{2069}\u{2028}"#)
    }

    @Test func printableTextIsUnchangedAndEscapingTwiceChangesNothing() {
        let text = #"日本語 émoji 👩‍💻 back\slash "quoted""#
        #expect(ControlCharacterEscaping.escape(text) == text)
        let once = ControlCharacterEscaping.escape("x\n\u{1B}y")
        #expect(ControlCharacterEscaping.escape(once) == once)
    }
}
