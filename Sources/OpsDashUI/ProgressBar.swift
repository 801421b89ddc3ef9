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
        buffer.draw(in: buffer.bounds) { render(into: &$0, x: x, y: y, width: width, glyphs: glyphs) }
    }

    /// Draws the bar at (`x`, `y`) of a widget's canvas across `width` cells, clipped to it.
    func render(into canvas: inout Canvas, x: Int, y: Int, width: Int, glyphs: GlyphSet) {
        let empty = CellStyle(dim: true)
        for (offset, character) in characters(width: width, glyphs: glyphs).enumerated() {
            let isEmpty = character == glyphs.barEmpty
            canvas[x + offset, y] = Cell(character, style: isEmpty ? empty : style)
        }
    }
}
