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
        let width = width
        cells.withUnsafeMutableBufferPointer { Self.put(cell, x: x, row: y * width, width: width, in: $0) }
    }

    /// `put(_:x:y:)` into the cells' storage `cells`, the row starting at index `row`.
    @inline(__always)
    private static func put(_ cell: Cell, x: Int, row: Int, width: Int, in cells: UnsafeMutableBufferPointer<Cell>) {
        let index = row + x
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
        write(text, x: x, y: y, style: style, from: 0, to: min(width, x + (maxWidth ?? width)))
    }

    /// Writes `text` from (`x`, `y`) in `style`, laid out from column `x` but stored only in
    /// columns `lower..<limit` (inside the buffer): a widget's area. Half a wide character at
    /// either edge shows as a space. Returns the column after the last one written.
    @discardableResult
    mutating func write(_ text: String, x: Int, y: Int, style: CellStyle, from lower: Int, to limit: Int) -> Int {
        guard y >= 0, y < height else { return x }
        if let column = writePrintableASCII(text, x: x, y: y, style: style, from: lower, to: limit) { return column }
        let lower = max(0, lower)
        let limit = min(width, limit)
        var column = x
        if text.unicodeScalars.allSatisfy({ DisplayWidth.isLoneNarrow($0.value) }) {
            // One cell per scalar (`DisplayWidth.isLoneNarrow`): no grapheme breaking, no measuring.
            for scalar in text.unicodeScalars {
                if column >= limit { break }
                if column >= lower { put(Cell(scalar: scalar, style: style), x: column, y: y) }
                column += 1
            }
            return column
        }
        return writeGraphemes(text, x: x, y: y, style: style, from: lower, to: limit)
    }

    /// `write(_:x:y:style:from:to:)` for text of printable ASCII alone (no control character),
    /// read once as bytes: one cell a byte, nothing measured or replaced. Nil (nothing written)
    /// for any other text, or a string whose bytes are not stored contiguously.
    mutating func writePrintableASCII(
        _ text: String, x: Int, y: Int, style: CellStyle, from lower: Int, to limit: Int
    ) -> Int? {
        guard y >= 0, y < height else { return x }
        let lower = max(0, lower)
        let limit = min(width, limit)
        let written: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for byte in bytes where byte < 0x20 || byte >= 0x7F { return nil }
            let end = x + min(bytes.count, max(0, limit - x))
            let start = max(x, lower)
            guard start < end else { return end }
            func cell(_ column: Int) -> Cell { Cell(scalar: Unicode.Scalar(bytes[column - x]), style: style) }
            let width = width
            let row = y * width
            // One pass over the storage: the edges may cut a wide character in half (first, so
            // that the halves they blank are overwritten after); the inside is overwritten whole.
            cells.withUnsafeMutableBufferPointer { target in
                Self.put(cell(start), x: start, row: row, width: width, in: target)
                if end - 1 > start { Self.put(cell(end - 1), x: end - 1, row: row, width: width, in: target) }
                if end - 2 > start {
                    for column in (start + 1)..<(end - 1) { target[row + column] = cell(column) }
                }
            }
            return end
        }
        return written ?? nil
    }

    /// `write(_:x:y:style:from:to:)` for any text: grapheme by grapheme, each measured.
    mutating func writeGraphemes(
        _ text: String, x: Int, y: Int, style: CellStyle, from lower: Int, to limit: Int
    ) -> Int {
        guard y >= 0, y < height else { return x }
        let lower = max(0, lower)
        let limit = min(width, limit)
        var column = x
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: one column per character, no measuring.
            for character in text {
                if column >= limit { break }
                if column >= lower { put(Cell(character, style: style), x: column, y: y) }
                column += 1
            }
            return column
        }
        for character in text {
            if column >= limit { break }
            switch DisplayWidth.of(character) {
            case 0: continue
            case 1:
                if column >= lower { put(Cell(character, style: style), x: column, y: y) }
                column += 1
            default:
                if column + 1 >= limit {
                    // Half a wide character never shows: pad the last column instead.
                    if column >= lower { put(Cell(" ", style: style), x: column, y: y) }
                    return column + 1
                }
                if column >= lower {
                    put(.wide(character, style: style), x: column, y: y)
                    put(.continuation(style: style), x: column + 1, y: y)
                } else if column + 1 >= lower {
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
        }
        guard x1 - 1 > x0 + 1 else { return }
        // The first row's inside filled, then copied to the other rows' (one block copy each).
        let count = x1 - 2 - x0
        let stride = width
        cells.withUnsafeMutableBufferPointer { target in
            guard let base = target.baseAddress else { return }
            let first = base + y0 * stride + x0 + 1
            Self.fill(first, count: count, with: cell)
            for row in (y0 + 1)..<y1 { (first + (row - y0) * stride).update(from: first, count: count) }
        }
    }

    /// Stores `cell` in the `count` cells from `start`: the first one, then copies of what is
    /// filled so far, doubling (a few block copies instead of a store per field per cell).
    private static func fill(_ start: UnsafeMutablePointer<Cell>, count: Int, with cell: Cell) {
        guard count > 0 else { return }
        start.pointee = cell
        var filled = 1
        while filled < count {
            let more = min(filled, count - filled)
            (start + filled).update(from: start, count: more)
            filled += more
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

    /// The `count` cells of row `y` from column `x` (inside the buffer).
    func cells(row y: Int, x: Int, count: Int) -> [Cell] {
        Array(cells[(y * width + x)..<(y * width + x + count)])
    }

    /// Replaces the cells of row `y` from column `x` with `row`; false (nothing changed) when
    /// they don't fit inside the buffer.
    mutating func replaceCells(row y: Int, x: Int, with row: [Cell]) -> Bool {
        guard y >= 0, y < height, x >= 0, x + row.count <= width else { return false }
        let start = y * width + x
        cells.withUnsafeMutableBufferPointer { target in
            row.withUnsafeBufferPointer { source in
                // One block copy (a cell holds no reference), not a store per field per cell.
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                (to + start).update(from: from, count: source.count)
            }
        }
        return true
    }

    /// Copies the `count` cells of row `y` from column `x` of `other`, a buffer of the same size,
    /// to the same place in this one; nothing when they are not inside both.
    mutating func copyCells(row y: Int, x: Int, count: Int, from other: CellBuffer) {
        guard other.width == width, other.height == height, y >= 0, y < height, x >= 0, count > 0,
            x + count <= width
        else { return }
        let start = y * width + x
        cells.withUnsafeMutableBufferPointer { target in
            other.cells.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                (to + start).update(from: from + start, count: count)
            }
        }
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

extension CellBuffer {
    /// Writes on row `y` from column `x` what `body` puts (`ScalarWriter`), stored only in
    /// columns `lower..<limit` (inside the buffer): a widget's area. A wide character cut in
    /// half at either end of what was stored is blanked, as `write` does. Returns the column
    /// after the last scalar put.
    mutating func writeScalars(
        x: Int, y: Int, from lower: Int, to limit: Int, _ body: (inout ScalarWriter) -> Void
    ) -> Int {
        let lower = max(0, lower)
        let limit = min(width, limit)
        guard y >= 0, y < height, lower < limit else {
            var writer = ScalarWriter(row: nil, lower: lower, limit: limit, column: x)
            body(&writer)
            return writer.column
        }
        let width = width
        return cells.withUnsafeMutableBufferPointer { cells -> Int in
            guard let base = cells.baseAddress else { return x }
            let row = base + y * width
            var writer = ScalarWriter(row: row, lower: lower, limit: limit, column: x)
            body(&writer)
            let start = max(x, lower)
            let end = min(writer.column, limit)
            guard start < end else { return writer.column }
            // What was stored is narrow: a wide character's lead left of it lost its right
            // half, and a right half after it lost its lead.
            if start > 0, row[start - 1].width == 2 { row[start - 1] = Cell(" ", style: row[start - 1].style) }
            if end < width, row[end].isContinuation { row[end] = Cell(" ", style: row[end].style) }
            return writer.column
        }
    }
}
