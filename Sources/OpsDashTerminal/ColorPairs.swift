import CNcurses
import OpsDashUI

/// Allocates curses colour pairs for (foreground, background) combinations on first use.
struct ColorPairs {
    private var pairs: [Key: Int16] = [:]
    private var next: Int16 = 1
    private let limit: Int
    private let defaultColors: Bool

    private struct Key: Hashable {
        var foreground: TerminalColor
        var background: TerminalColor
    }

    /// A cache for a screen whose `start_color` has run; `defaultColors` is whether
    /// `use_default_colors` succeeded.
    init(limit: Int, defaultColors: Bool) {
        self.limit = limit
        self.defaultColors = defaultColors
    }

    /// The pair number for the combination, creating it if needed; 0 (the default pair) when
    /// both are default or the terminal has run out of pairs.
    mutating func pair(foreground: TerminalColor, background: TerminalColor) -> Int16 {
        if foreground == .default && background == .default { return 0 }
        let key = Key(foreground: foreground, background: background)
        if let existing = pairs[key] { return existing }
        guard Int(next) < limit else { return 0 }
        var fg = cursesColorNumber(foreground)
        var bg = cursesColorNumber(background)
        if !defaultColors {
            if fg < 0 { fg = Int16(COLOR_WHITE) }
            if bg < 0 { bg = Int16(COLOR_BLACK) }
        }
        guard init_pair(next, fg, bg) != ERR else { return 0 }
        pairs[key] = next
        next += 1
        return pairs[key] ?? 0
    }
}
