import OpsMonitor

/// The characters each widget draws, per glyph set; every Unicode glyph has an ASCII fallback.
extension GlyphSet {
    /// Horizontal rule.
    public var horizontal: Character { self == .unicode ? "─" : "-" }
    /// Vertical rule.
    public var vertical: Character { self == .unicode ? "│" : "|" }
    /// Box corners: top-left, top-right, bottom-left, bottom-right.
    public var corners: (Character, Character, Character, Character) {
        self == .unicode ? ("┌", "┐", "└", "┘") : ("+", "+", "+", "+")
    }
    /// Marks text cut short.
    public var ellipsis: Character { self == .unicode ? "…" : "~" }
    /// Separates items in a line of text.
    public var arrow: String { self == .unicode ? "→" : "->" }
    /// The unfilled part of a progress bar.
    public var barEmpty: Character { self == .unicode ? "·" : "." }
    /// A fully filled progress-bar cell.
    public var barFull: Character { self == .unicode ? "█" : "#" }

    /// A partly filled progress-bar cell for `eighths` in 1…7 (ASCII has one partial glyph).
    public func barPartial(eighths: Int) -> Character {
        guard self == .unicode else { return "=" }
        let blocks: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return blocks[min(6, max(0, eighths - 1))]
    }

    /// The kind column's glyph: ↓ download, ↑ upload, ⚙ process, · other (ASCII v ^ * .).
    public func kind(_ kind: OperationKind) -> Character {
        switch (kind, self) {
        case (.download, .unicode): "↓"
        case (.download, .ascii): "v"
        case (.upload, .unicode): "↑"
        case (.upload, .ascii): "^"
        case (.process, .unicode): "⚙"
        case (.process, .ascii): "*"
        case (.other, .unicode): "·"
        case (.other, .ascii): "."
        }
    }

    /// Tree connector for a child that has later siblings (`├─ `) or is the last (`└─ `).
    public func treeBranch(last: Bool) -> String {
        switch (last, self) {
        case (false, .unicode): "├─ "
        case (true, .unicode): "└─ "
        case (false, .ascii): "|- "
        case (true, .ascii): "`- "
        }
    }

    /// Tree guide under an ancestor that has later siblings (`│  `), or blank.
    public func treeGuide(continues: Bool) -> String {
        guard continues else { return "   " }
        return self == .unicode ? "│  " : "|  "
    }

    /// Key names shown in the footer and help.
    var upDown: String { self == .unicode ? "↑↓" : "Up/Dn" }
    /// The Enter key's name.
    var enterKey: String { self == .unicode ? "⏎" : "Enter" }
}

/// The styles the dashboard uses, in one place so widgets agree on colours.
enum Theme {
    static let title = CellStyle(bold: true)
    static let running = CellStyle(foreground: .black, background: .green, bold: true)
    static let paused = CellStyle(foreground: .yellow, bold: true, reverse: true)
    static let done = CellStyle(foreground: .black, background: .cyan, bold: true)
    static let label = CellStyle(dim: true)
    static let columnHeader = CellStyle(bold: true, underline: true)
    static let selected = CellStyle(reverse: true)
    static let border = CellStyle(foreground: .cyan)
    static let footerKey = CellStyle(foreground: .cyan, bold: true)
    static let prompt = CellStyle(foreground: .yellow, bold: true, reverse: true)
    static let warning = CellStyle(foreground: .yellow)
    static let error = CellStyle(foreground: .red)
    /// What changes every frame or every second in the header (the overall bar, percentage and
    /// clock): no attributes and no colour, so updating it costs the terminal no attribute or
    /// colour switch (on xterm each is 5–15 bytes, more than the changed characters themselves).
    static let live = CellStyle.plain

    /// The bar colour for an operation's state.
    static func bar(_ state: DisplayState) -> CellStyle {
        CellStyle(foreground: state.style.foreground)
    }

    /// `style` where the filter matched: bold and underlined, visible on any terminal and on
    /// the selected (reversed) row.
    static func match(_ style: CellStyle) -> CellStyle {
        var result = style
        result.bold = true
        result.underline = true
        return result
    }

    /// `style` as it looks on the selected row.
    static func selecting(_ style: CellStyle, _ isSelected: Bool) -> CellStyle {
        guard isSelected else { return style }
        var result = style
        result.reverse = true
        return result
    }
}
