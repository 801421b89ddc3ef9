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
    /// History sparklines and charts.
    static let sparkline = CellStyle(foreground: .cyan)
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
}
