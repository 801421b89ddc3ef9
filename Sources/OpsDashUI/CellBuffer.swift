/// A terminal colour, named; the backend maps it to what the terminal can show.
public enum TerminalColor: UInt8, Sendable, Hashable, CaseIterable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white
}

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

/// One character cell: a single-column grapheme and its style.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown; one column wide.
    public var character: Character
    /// How it looks.
    public var style: CellStyle

    /// A cell showing `character` in `style`.
    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// A space in the default style.
    public static let blank = Cell()
}

/// A rectangle of cells, `width × height`, row-major. Widgets render into it; only the
/// terminal backend ever draws it.
public struct CellBuffer: Sendable, Equatable {
    /// Columns.
    public private(set) var width: Int
    /// Rows.
    public private(set) var height: Int
    /// All cells, row-major: cell (x, y) is at `y * width + x`.
    public private(set) var cells: [Cell]

    /// A buffer of blanks. Negative sizes are treated as zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`; reading outside gives a blank, writing outside is ignored.
    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .blank }
            return cells[y * width + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// Writes `text` from (`x`, `y`) in `style`, clipped to `maxWidth` columns and to the
    /// buffer. Returns the column after the last character written.
    @discardableResult
    public mutating func write(
        _ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(width, x + (maxWidth ?? width))
        var column = x
        for character in text {
            if column >= limit { break }
            if column >= 0 { cells[y * width + column] = Cell(character, style: style) }
            column += 1
        }
        return column
    }

    /// Fills a rectangle with one cell.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 { cells[row * width + column] = cell }
        }
    }

    /// The text of row `y`, trailing spaces kept; for tests and captures.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        return String(cells[(y * width)..<(y * width + width)].map(\.character))
    }

    /// Every row's text, trailing spaces trimmed; what a whole-frame snapshot test compares.
    public var lines: [String] {
        (0..<height).map { y in
            var text = line(y)
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
