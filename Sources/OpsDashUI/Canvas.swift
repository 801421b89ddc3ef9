/// A widget's view of a `CellBuffer` while it draws: coordinates relative to the widget's area,
/// every cell clipped to that area by display columns (half a wide character cut by an edge
/// shows as a space). A widget given a canvas cannot write outside its area.
struct Canvas {
    /// The buffer drawn into, lent by `CellBuffer.draw(in:_:)` for the length of the drawing.
    fileprivate(set) var buffer: CellBuffer
    /// The widget's area in buffer coordinates: the origin of the canvas's coordinates.
    let area: Rect
    /// The part of `area` inside the buffer: the only cells the canvas writes.
    let clip: Rect

    /// Columns of the area.
    var width: Int { area.width }
    /// Rows of the area.
    var height: Int { area.height }

    /// Whether the area's rows are whole buffer rows (a cached row can then stand for its row).
    var spansBufferWidth: Bool { clip.x == 0 && clip.width == buffer.width }

    /// The buffer row of the canvas's row `y`.
    func bufferRow(_ y: Int) -> Int { area.y + y }

    /// Writes `text` from (`x`, `y`) in `style`, clipped to `maxWidth` columns and to the area;
    /// returns the column after the last one written.
    @discardableResult
    mutating func write(
        _ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil
    ) -> Int {
        let row = area.y + y
        guard row >= clip.y, row < clip.maxY else { return x }
        let left = area.x + x
        let limit = maxWidth.map { min(clip.maxX, left + $0) } ?? clip.maxX
        return buffer.write(text, x: left, y: row, style: style, from: clip.x, to: limit) - area.x
    }

    /// Writes spans one after another from (`x`, `y`), clipped to `maxWidth` columns and to the
    /// area; returns the column after the last character written.
    @discardableResult
    mutating func write(_ spans: [Span], x: Int, y: Int, maxWidth: Int) -> Int {
        let limit = x + max(0, maxWidth)
        var column = x
        let row = area.y + y
        guard row >= clip.y, row < clip.maxY else { return x }
        // By index: each span read where the array stores it, not copied.
        for index in spans.indices where column < limit {
            // Printable ASCII (nearly every span) in one pass; other text checked for control
            // characters first.
            if let next = buffer.writePrintableASCII(
                spans[index].text, x: area.x + column, y: row, style: spans[index].style, from: clip.x,
                to: min(clip.maxX, area.x + limit))
            {
                column = next - area.x
                continue
            }
            column = write(
                displayable(spans[index].text), x: column, y: y, style: spans[index].style, maxWidth: limit - column)
        }
        return column
    }

    /// The cell at (`x`, `y`); writing outside the area is ignored.
    subscript(x: Int, y: Int) -> Cell {
        get { buffer[area.x + x, area.y + y] }
        set {
            guard clip.contains(column: area.x + x, row: area.y + y) else { return }
            buffer[area.x + x, area.y + y] = newValue
        }
    }

    /// Fills a rectangle of the area with one one-column cell.
    mutating func fill(x: Int, y: Int, width: Int, height: Int, with cell: Cell = .blank) {
        let target = Rect(x: area.x + x, y: area.y + y, width: width, height: height).intersection(clip)
        buffer.fill(x: target.x, y: target.y, width: target.width, height: target.height, with: cell)
    }

    /// Draws a horizontal rule across `width` columns with an optional title: `─ Title ─────`.
    mutating func rule(
        y: Int, x: Int = 0, width: Int, title: String = "", glyphs: GlyphSet, style: CellStyle = Theme.border
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
        let row = area.y + y
        guard row >= clip.y, row < clip.maxY else { return }
        let start = max(clip.x, area.x + x)
        let end = min(clip.maxX, area.x + x + width)
        guard start < end else { return }
        for column in start..<end {
            var cell = buffer[column, row]
            cell.style.reverse = true
            buffer[column, row] = cell
        }
    }

    /// The cells of row `y` inside the area, for a cache of rendered rows.
    func cells(row y: Int) -> [Cell] {
        let row = area.y + y
        guard row >= clip.y, row < clip.maxY else { return [] }
        return buffer.cells(row: row, x: clip.x, count: clip.width)
    }

    /// Replaces row `y` inside the area with `cells` taken by `cells(row:)` from an area as
    /// wide; false (nothing changed) when the widths differ.
    mutating func replace(row y: Int, with cells: [Cell]) -> Bool {
        let row = area.y + y
        guard row >= clip.y, row < clip.maxY, cells.count == clip.width else { return false }
        return buffer.replaceCells(row: row, x: clip.x, with: cells)
    }
}

extension CellBuffer {
    /// Runs `draw` with a canvas over `area` of this buffer: what it draws lands inside `area`
    /// (and inside the buffer), nowhere else. Nothing runs for an area with no cell on screen.
    mutating func draw(in area: Rect, _ draw: (inout Canvas) -> Void) {
        let clip = area.intersection(Rect(x: 0, y: 0, width: width, height: height))
        guard !clip.isEmpty else { return }
        var canvas = Canvas(buffer: CellBuffer(width: 0, height: 0), area: area, clip: clip)
        // Lent, not copied: the cells move into the canvas and back.
        swap(&canvas.buffer, &self)
        draw(&canvas)
        swap(&canvas.buffer, &self)
    }

    /// The whole buffer as a rectangle.
    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}

extension Canvas {
    /// Writes on row `y` from column `x` what `body` puts (`ScalarWriter`), clipped to
    /// `maxWidth` columns and to the area; returns the column after the last scalar put.
    @discardableResult
    mutating func writeScalars(x: Int, y: Int, maxWidth: Int? = nil, _ body: (inout ScalarWriter) -> Void) -> Int {
        let row = area.y + y
        let left = area.x + x
        let limit = maxWidth.map { min(clip.maxX, left + $0) } ?? clip.maxX
        let inside = row >= clip.y && row < clip.maxY
        return buffer.writeScalars(x: left, y: inside ? row : -1, from: clip.x, to: limit, body) - area.x
    }
}

extension Canvas {
    /// Drawing in place with `cache`: blanks the canvas's rows `rows` (inside its clip) to draw
    /// them again, keeping what the frame on screen showed there for the diff
    /// (`RenderCache.blank(_:in:)`); nothing otherwise.
    mutating func blank(rows: Range<Int>, keepingIn cache: RenderCache) {
        guard !rows.isEmpty else { return }
        let target = Rect(x: clip.x, y: area.y + rows.lowerBound, width: clip.width, height: rows.count)
        cache.blank(target.intersection(clip), in: &buffer)
    }
}
