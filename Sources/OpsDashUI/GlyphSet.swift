import OpsMonitor

/// Characters the widgets draw with: Unicode box/block glyphs, or ASCII when the locale can't
/// show them.
public enum GlyphSet: Sendable, Equatable {
    case unicode, ascii
}

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
