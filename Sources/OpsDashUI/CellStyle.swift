/// How one cell looks. Semantic colours; the backend degrades them to bold/reverse on a
/// monochrome terminal.
public struct CellStyle: Sendable, Hashable {
    /// Text colour.
    public var foreground: TerminalColor
    /// Background colour.
    public var background: TerminalColor
    /// Bold (bright) text.
    public var bold: Bool
    /// Dim text.
    public var dim: Bool
    /// Reverse video: foreground and background swapped.
    public var reverse: Bool
    /// Underlined text.
    public var underline: Bool

    /// A style; every attribute defaults to the terminal's default look.
    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default look.
    public static let plain = CellStyle()
}
