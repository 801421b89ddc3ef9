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

/// One character cell: a grapheme and its style.
///
/// A wide character (CJK, emoji: see `DisplayWidth`) takes two cells: a lead cell holding it
/// (`width == 2`) and, right of it, a continuation cell (`width == 0`) that draws nothing and
/// only keeps the column taken. `CellBuffer.write` lays them out; the terminal backend draws the
/// lead once and skips the continuation.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown.
    public var character: Character
    /// How it looks.
    public var style: CellStyle
    /// Columns the cell's character takes: 1, 2 for a wide character's lead cell, 0 for the
    /// continuation cell right of a wide character.
    public private(set) var width: UInt8

    /// A cell showing `character`, a one-column grapheme, in `style`. Wide text goes through
    /// `CellBuffer.write`, which measures it.
    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.character = character
        self.style = style
        self.width = 1
    }

    private init(_ character: Character, style: CellStyle, width: UInt8) {
        self.character = character
        self.style = style
        self.width = width
    }

    /// The lead cell of a two-column `character`.
    static func wide(_ character: Character, style: CellStyle) -> Cell {
        Cell(character, style: style, width: 2)
    }

    /// The cell right of a wide character, in the character's style.
    static func continuation(style: CellStyle) -> Cell {
        Cell(" ", style: style, width: 0)
    }

    /// Whether this is the right half of a wide character (nothing of its own to draw).
    public var isContinuation: Bool { width == 0 }

    /// Cheap fields first: most cells a frame compares are equal, and a differing one usually
    /// differs in style or width before its character.
    @inline(__always)
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.width == rhs.width && lhs.style == rhs.style && lhs.character == rhs.character
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
    /// Writing over half of a wide character blanks its other half.
    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .blank }
            return cells[y * width + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            put(newValue, x: x, y: y)
        }
    }

    /// Stores `cell` at (`x`, `y`) (inside the buffer), blanking what is left of a wide
    /// character it overwrites half of, so no half character is ever stored.
    @inline(__always)
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        let index = y * width + x
        let old = cells[index]
        if old.width == 1 || old.width == cell.width && cell.width == 2 {
            cells[index] = cell
            return
        }
        if old.width == 0 && cell.width != 0 && x > 0 {
            // The lead of the wide character this was the right half of.
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if old.width == 2 && cell.width != 2 && x + 1 < width {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Writes `text` from (`x`, `y`) in `style`, clipped to `maxWidth` columns and to the
    /// buffer, measuring each character's width (`DisplayWidth`). A wide character that would
    /// be cut at the right edge is replaced by a space; zero-width ones are dropped. Returns the
    /// column after the last one written.
    @discardableResult
    public mutating func write(
        _ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        guard y >= 0, y < height else { return x }
        let limit = min(width, x + (maxWidth ?? width))
        var column = x
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: one column per character, no measuring.
            for character in text {
                if column >= limit { break }
                if column >= 0 { put(Cell(character, style: style), x: column, y: y) }
                column += 1
            }
            return column
        }
        for character in text {
            if column >= limit { break }
            switch DisplayWidth.of(character) {
            case 0: continue
            case 1:
                if column >= 0 { put(Cell(character, style: style), x: column, y: y) }
                column += 1
            default:
                if column + 1 >= limit {
                    // Half a wide character never shows: pad the last column instead.
                    if column >= 0 { put(Cell(" ", style: style), x: column, y: y) }
                    return column + 1
                }
                if column >= 0 {
                    put(.wide(character, style: style), x: column, y: y)
                    put(.continuation(style: style), x: column + 1, y: y)
                } else if column + 1 >= 0 {
                    put(Cell(" ", style: style), x: column + 1, y: y)
                }
                column += 2
            }
        }
        return column
    }

    /// Fills a rectangle with one cell (a one-column cell, such as a space or a rule glyph).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, with cell: Cell = .blank) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            // The edges may cut a wide character in half; the inside is overwritten whole.
            put(cell, x: x0, y: row)
            if x1 - 1 > x0 { put(cell, x: x1 - 1, y: row) }
            if x1 - 1 > x0 + 1 {
                for column in (x0 + 1)..<(x1 - 1) { cells[row * width + column] = cell }
            }
        }
    }

    /// Makes this a blank `width × height` buffer, reusing its storage when the size is the same.
    mutating func reset(width: Int, height: Int) {
        let width = max(0, width)
        let height = max(0, height)
        guard width == self.width, height == self.height else {
            self = CellBuffer(width: width, height: height)
            return
        }
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
    }

    /// The cells of row `y` (inside the buffer).
    func row(_ y: Int) -> [Cell] {
        Array(cells[(y * width)..<(y * width + width)])
    }

    /// Replaces row `y` with `row`, cells of a row of the same width; false (nothing changed)
    /// when the sizes differ.
    mutating func replaceRow(_ y: Int, with row: [Cell]) -> Bool {
        guard y >= 0, y < height, row.count == width else { return false }
        let start = y * width
        cells.withUnsafeMutableBufferPointer { target in
            row.withUnsafeBufferPointer { source in
                for offset in 0..<source.count { target[start + offset] = source[offset] }
            }
        }
        return true
    }

    /// The text of row `y` as a terminal shows it (a wide character once, its continuation
    /// cell skipped), trailing spaces kept; for tests and captures.
    public func line(_ y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var text = ""
        for cell in cells[(y * width)..<(y * width + width)] where !cell.isContinuation {
            text.append(cell.character)
        }
        return text
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
