import OpsDashUI

/// Text attributes independent of curses' bit layout.
struct TextAttributes: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let bold = TextAttributes(rawValue: 1 << 0)
    static let dim = TextAttributes(rawValue: 1 << 1)
    static let reverse = TextAttributes(rawValue: 1 << 2)
    static let underline = TextAttributes(rawValue: 1 << 3)
}

/// A cell style as the terminal will show it: attributes plus the colours it can use.
struct ResolvedStyle: Sendable, Hashable {
    var attributes: TextAttributes
    var foreground: TerminalColor
    var background: TerminalColor
}

/// Resolves `style` for a terminal with or without colours. Without colours, red text (failed,
/// errors) becomes bold and underlined, yellow and green text bold, and any coloured background
/// reverse video: a failed row never looks like a succeeded one. Pure.
func resolve(_ style: CellStyle, hasColors: Bool) -> ResolvedStyle {
    var attributes: TextAttributes = []
    if style.bold { attributes.insert(.bold) }
    if style.dim { attributes.insert(.dim) }
    if style.reverse { attributes.insert(.reverse) }
    if style.underline { attributes.insert(.underline) }
    if hasColors {
        return ResolvedStyle(
            attributes: attributes, foreground: style.foreground, background: style.background)
    }
    switch style.foreground {
    case .red:
        attributes.insert(.bold)
        attributes.insert(.underline)
    case .yellow, .green: attributes.insert(.bold)
    default: break
    }
    if style.background != .default {
        // Reverse on reverse would cancel out; a highlighted row stays highlighted.
        attributes.insert(.reverse)
    }
    return ResolvedStyle(attributes: attributes, foreground: .default, background: .default)
}

/// The curses colour number for `color`: -1 is the terminal default (`use_default_colors`).
func cursesColorNumber(_ color: TerminalColor) -> Int16 {
    color == .default ? -1 : Int16(color.rawValue) - 1
}
