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
        let (full, partial) = filled(width: width)
        var result = Array(repeating: glyphs.barFull, count: full)
        if partial > 0 { result.append(glyphs.barPartial(eighths: partial)) }
        while result.count < width { result.append(glyphs.barEmpty) }
        return result
    }

    /// Draws the bar at (`x`, `y`) across `width` cells.
    public func render(into buffer: inout CellBuffer, x: Int, y: Int, width: Int, glyphs: GlyphSet) {
        buffer.draw(in: buffer.bounds) { render(into: &$0, x: x, y: y, width: width, glyphs: glyphs) }
    }

    /// Full cells and the eighths of the partial one for `width` cells (`width` above 0).
    private func filled(width: Int) -> (full: Int, partialEighths: Int) {
        let eighths = filledEighths(width: width)
        return (eighths / 8, eighths % 8)
    }

    /// Eighths of a cell filled across `width` cells (0 for no cells).
    func filledEighths(width: Int) -> Int {
        guard width > 0 else { return 0 }
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return Int((clamped * Double(width * 8)).rounded(.down))
    }

    /// Draws the bar at (`x`, `y`) of a widget's canvas across `width` cells, clipped to it: the
    /// full cells and the empty ones filled as runs (no character built or compared per cell).
    func render(into canvas: inout Canvas, x: Int, y: Int, width: Int, glyphs: GlyphSet) {
        Self.render(
            eighths: filledEighths(width: width), style: style, into: &canvas, x: x, y: y, width: width, glyphs: glyphs)
    }

    /// Draws a bar `eighths` eighths of a cell full (`filledEighths(width:)`) in `style` at (`x`,
    /// `y`) of a widget's canvas across `width` cells, as `render(into:x:y:width:glyphs:)` does.
    static func render(
        eighths: Int, style: CellStyle, into canvas: inout Canvas, x: Int, y: Int, width: Int, glyphs: GlyphSet
    ) {
        guard width > 0 else { return }
        let (full, partial) = (eighths / 8, eighths % 8)
        canvas.fill(x: x, y: y, width: full, height: 1, with: Cell(glyphs.barFull, style: style))
        var column = full
        if partial > 0 {
            canvas[x + column, y] = Cell(glyphs.barPartial(eighths: partial), style: style)
            column += 1
        }
        let empty = Cell(glyphs.barEmpty, style: CellStyle(dim: true))
        canvas.fill(x: x + column, y: y, width: width - column, height: 1, with: empty)
    }
}
