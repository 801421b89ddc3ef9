import OpsDashUI
import Testing

@testable import OpsDashTerminal

/// The user's locale decides the glyphs (Unicode only for a UTF-8 codeset) and `NO_COLOR`
/// turns colour off.
@Suite struct TerminalLocaleTests {
    @Test func onlyAUTF8CodesetGetsUnicodeGlyphs() {
        #expect(glyphSet(forCodeset: "UTF-8") == .unicode)
        #expect(glyphSet(forCodeset: "utf8") == .unicode)
        #expect(glyphSet(forCodeset: "ANSI_X3.4-1968") == .ascii, "the C locale's codeset")
        #expect(glyphSet(forCodeset: "ISO-8859-1") == .ascii)
        #expect(glyphSet(forCodeset: nil) == .ascii)
    }

    @Test func theCharacterLocaleIsLCAllThenLCCTypeThenLang() {
        func requested(_ environment: [String: String]) -> String? {
            requestedCharacterLocale { environment[$0] }
        }
        #expect(requested(["LANG": "C", "LC_ALL": "C"]) == "C")
        #expect(requested(["LANG": "en_US.UTF-8", "LC_ALL": "C"]) == "C")
        #expect(requested(["LANG": "C", "LC_CTYPE": "de_DE.utf8"]) == "de_DE.utf8")
        #expect(requested(["LANG": "en_US.UTF-8", "LC_ALL": ""]) == "en_US.UTF-8")
        #expect(requested([:]) == nil)
    }

    @Test func aLocaleNameSaysWhetherItMeansUTF8() {
        #expect(localeNameIsUTF8("en_US.UTF-8"))
        #expect(localeNameIsUTF8("de_DE.utf8"))
        #expect(!localeNameIsUTF8("C"))
        #expect(!localeNameIsUTF8("POSIX"))
        #expect(!localeNameIsUTF8("fr_FR.ISO-8859-1"))
    }

    @Test func noColorSetAndNonEmptyTurnsColourOff() {
        #expect(usesColor(terminalHasColors: true, noColor: nil))
        #expect(usesColor(terminalHasColors: true, noColor: ""), "set but empty: ignored (no-color.org)")
        #expect(!usesColor(terminalHasColors: true, noColor: "1"))
        #expect(!usesColor(terminalHasColors: true, noColor: "0"), "any non-empty value")
        #expect(!usesColor(terminalHasColors: false, noColor: nil))
    }

    @Test func withoutColourStylesKeepBoldAndReverse() {
        let failed = resolve(CellStyle(foreground: .red, bold: true), hasColors: false)
        #expect(failed.attributes.contains(.bold))
        #expect(failed.foreground == .default)
        let badge = resolve(CellStyle(foreground: .black, background: .green, bold: true), hasColors: false)
        #expect(badge.attributes.contains(.reverse))
        #expect(badge.background == .default)
    }
}
