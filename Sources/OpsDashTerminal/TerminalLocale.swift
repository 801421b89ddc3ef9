#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OpsDashUI

/// Sets the process locale from the user's environment (wide-character curses needs
/// `setlocale`) and reports which glyphs the terminal can show: Unicode when the user's
/// codeset is UTF-8, ASCII otherwise (`LANG=C` gets ASCII).
///
/// When the requested locale isn't installed (setlocale fails) but names UTF-8, as
/// `en_US.UTF-8` in a minimal container does, `C.UTF-8` stands in for it.
func configureLocale() -> GlyphSet {
    if setlocale(LC_ALL, "") != nil { return glyphSet(forCodeset: currentCodeset()) }
    if let requested = requestedCharacterLocale(environmentValue),
        localeNameIsUTF8(requested), setlocale(LC_ALL, "C.UTF-8") != nil
    {
        return glyphSet(forCodeset: currentCodeset())
    }
    _ = setlocale(LC_ALL, "C")
    return .ascii
}

/// Sets only the character-type locale (what wide-character curses needs) to UTF-8, leaving
/// number formatting and the rest of the process locale alone; Unicode glyphs when that works.
func configureCharacterLocale() -> GlyphSet {
    if setlocale(LC_CTYPE, "C.UTF-8") != nil { return glyphSet(forCodeset: currentCodeset()) }
    return .ascii
}

/// The glyphs for a locale codeset (`nl_langinfo(CODESET)`): Unicode for UTF-8, else ASCII.
func glyphSet(forCodeset codeset: String?) -> GlyphSet {
    guard let name = codeset?.uppercased() else { return .ascii }
    return name == "UTF-8" || name == "UTF8" ? .unicode : .ascii
}

/// The locale the C library uses for character types: the first non-empty of `LC_ALL`,
/// `LC_CTYPE` and `LANG`; nil when none is set (the C locale).
func requestedCharacterLocale(_ value: (String) -> String?) -> String? {
    for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
        if let setting = value(name), !setting.isEmpty { return setting }
    }
    return nil
}

/// Whether a locale name such as `en_US.UTF-8` or `de_DE.utf8` names the UTF-8 codeset.
func localeNameIsUTF8(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return lowered.contains("utf-8") || lowered.contains("utf8")
}

/// Whether the dashboard draws in colour: only on a terminal that has colours, and never when
/// `NO_COLOR` is set to a non-empty value (no-color.org); without colour, styles degrade to
/// bold and reverse video.
func usesColor(terminalHasColors: Bool, noColor: String?) -> Bool {
    terminalHasColors && (noColor ?? "").isEmpty
}

/// The value of environment variable `name`, if set.
func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

private func currentCodeset() -> String? {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return nil }
    return String(cString: codeset)
}
