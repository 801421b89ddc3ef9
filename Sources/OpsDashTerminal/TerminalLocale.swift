#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import OpsDashUI

/// Sets the process locale from the environment, falling back to C.UTF-8, and reports which
/// glyphs the terminal can show: Unicode when the codeset is UTF-8, otherwise ASCII.
func configureLocale() -> GlyphSet {
    if setlocale(LC_ALL, "") != nil, codesetIsUTF8() { return .unicode }
    if setlocale(LC_ALL, "C.UTF-8") != nil, codesetIsUTF8() { return .unicode }
    _ = setlocale(LC_ALL, "C")
    return .ascii
}

/// Sets only the character-type locale (what wide-character curses needs) to UTF-8, leaving
/// number formatting and the rest of the process locale alone; Unicode glyphs when that works.
func configureCharacterLocale() -> GlyphSet {
    if setlocale(LC_CTYPE, "C.UTF-8") != nil, codesetIsUTF8() { return .unicode }
    return .ascii
}

private func codesetIsUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
}
