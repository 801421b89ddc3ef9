/// A piece of styled text; widgets build lines from these.
public struct Span: Sendable, Equatable {
    /// The characters.
    public var text: String
    /// How they look.
    public var style: CellStyle

    /// A span of `text` in `style`.
    public init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// Columns the text takes on screen.
    public var width: Int { DisplayWidth.of(text) }
}

extension CellBuffer {
    /// Writes spans one after another from (`x`, `y`), clipped to `maxWidth` columns; returns
    /// the column after the last character written.
    @discardableResult
    mutating func write(_ spans: [Span], x: Int, y: Int, maxWidth: Int) -> Int {
        let limit = x + max(0, maxWidth)
        var column = x
        for span in spans where column < limit {
            column = write(
                displayable(span.text), x: column, y: y, style: span.style,
                maxWidth: limit - column)
        }
        return column
    }

    /// Draws a horizontal rule across `width` columns with an optional title: `─ Title ─────`.
    mutating func rule(
        y: Int, x: Int = 0, width: Int, title: String = "", glyphs: GlyphSet,
        style: CellStyle = Theme.border
    ) {
        fill(x: x, y: y, width: width, height: 1, with: Cell(glyphs.horizontal, style: style))
        guard !title.isEmpty else { return }
        write(" \(displayable(title)) ", x: x + 1, y: y, style: Theme.title, maxWidth: max(0, width - 2))
    }

    /// Draws a box border around the rectangle and blanks its inside.
    mutating func box(x: Int, y: Int, width: Int, height: Int, glyphs: GlyphSet) {
        guard width >= 2, height >= 2 else { return }
        fill(x: x, y: y, width: width, height: height)
        let (topLeft, topRight, bottomLeft, bottomRight) = glyphs.corners
        let horizontal = Cell(glyphs.horizontal, style: Theme.border)
        let vertical = Cell(glyphs.vertical, style: Theme.border)
        fill(x: x + 1, y: y, width: width - 2, height: 1, with: horizontal)
        fill(x: x + 1, y: y + height - 1, width: width - 2, height: 1, with: horizontal)
        fill(x: x, y: y + 1, width: 1, height: height - 2, with: vertical)
        fill(x: x + width - 1, y: y + 1, width: 1, height: height - 2, with: vertical)
        self[x, y] = Cell(topLeft, style: Theme.border)
        self[x + width - 1, y] = Cell(topRight, style: Theme.border)
        self[x, y + height - 1] = Cell(bottomLeft, style: Theme.border)
        self[x + width - 1, y + height - 1] = Cell(bottomRight, style: Theme.border)
    }

    /// Sets reverse video on `width` cells of row `y` from `x`, keeping their colours.
    mutating func reverse(y: Int, x: Int, width: Int) {
        for column in max(0, x)..<max(max(0, x), min(self.width, x + width)) {
            var cell = self[column, y]
            cell.style.reverse = true
            self[column, y] = cell
        }
    }
}

/// Lays spans out into lines of at most `width` columns, breaking between spans; a span wider
/// than a line is cut across lines at column boundaries (a wide character is never split).
func wrap(_ spans: [Span], separator: Span, width: Int) -> [[Span]] {
    guard width > 0 else { return [] }
    var lines: [[Span]] = []
    var current: [Span] = []
    var used = 0
    for whole in spans {
        for span in pieces(whole, width: width) {
            let spanWidth = span.width
            let needed = spanWidth + (current.isEmpty ? 0 : separator.width)
            if !current.isEmpty && used + needed > width {
                lines.append(current)
                current = []
                used = 0
            }
            if !current.isEmpty {
                current.append(separator)
                used += separator.width
            }
            current.append(span)
            used += spanWidth
        }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
}

/// `span` cut into pieces at most `width` columns wide (itself when it fits).
private func pieces(_ span: Span, width: Int) -> [Span] {
    guard span.width > width else { return [span] }
    var result: [Span] = []
    var rest = Substring(displayable(span.text))
    while !rest.isEmpty {
        var (head, _) = DisplayWidth.prefix(String(rest), columns: width)
        if head.isEmpty { head = rest.prefix(1) }  // a wide character in a 1-column line
        result.append(Span(String(head), span.style))
        rest = rest.dropFirst(head.count)
    }
    return result
}

/// `text` with control characters (newlines, tabs, escapes) shown as `?`, so data from the
/// queue can never move the terminal's cursor or break a row.
func displayable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
}

private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

/// A horizontal progress bar with eighth-of-a-cell resolution (`█▉▊▋▌▍▎▏`), or `#`/`=` in ASCII.
public struct ProgressBar: Sendable, Equatable {
    /// Progress in 0…1.
    public var fraction: Double
    /// Style of the filled part.
    public var style: CellStyle

    /// A bar showing `fraction` in `style`.
    public init(fraction: Double, style: CellStyle = .plain) {
        self.fraction = fraction
        self.style = style
    }

    /// The bar's characters for `width` cells: full cells, one partial cell, then empty cells.
    public func characters(width: Int, glyphs: GlyphSet) -> [Character] {
        guard width > 0 else { return [] }
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let eighths = Int((clamped * Double(width * 8)).rounded(.down))
        let full = eighths / 8
        let partial = eighths % 8
        var result = Array(repeating: glyphs.barFull, count: full)
        if partial > 0 { result.append(glyphs.barPartial(eighths: partial)) }
        while result.count < width { result.append(glyphs.barEmpty) }
        return result
    }

    /// Draws the bar at (`x`, `y`) across `width` cells.
    public func render(into buffer: inout CellBuffer, x: Int, y: Int, width: Int, glyphs: GlyphSet) {
        let empty = CellStyle(dim: true)
        for (offset, character) in characters(width: width, glyphs: glyphs).enumerated() {
            let isEmpty = character == glyphs.barEmpty
            buffer[x + offset, y] = Cell(character, style: isEmpty ? empty : style)
        }
    }
}

/// `text` as spans in `style`, with each case-insensitive occurrence of `needle` (already
/// lowercased) underlined and bold: how rows show what the filter matched.
func highlighted(_ text: String, _ needle: String, _ style: CellStyle) -> [Span] {
    guard !needle.isEmpty, !text.isEmpty else { return [Span(text, style)] }
    let characters = Array(text)
    let target = needle.map { String($0) }
    guard target.count <= characters.count else { return [Span(text, style)] }
    let lowered = characters.map { $0.lowercased() }
    var spans: [Span] = []
    var plainStart = 0
    var index = 0
    while index + target.count <= characters.count {
        if lowered[index..<(index + target.count)].elementsEqual(target) {
            if plainStart < index { spans.append(Span(String(characters[plainStart..<index]), style)) }
            spans.append(Span(String(characters[index..<(index + target.count)]), Theme.match(style)))
            index += target.count
            plainStart = index
        } else {
            index += 1
        }
    }
    guard !spans.isEmpty else { return [Span(text, style)] }
    if plainStart < characters.count { spans.append(Span(String(characters[plainStart...]), style)) }
    return spans
}
