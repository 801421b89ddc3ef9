/// The screen below the minimum size: "enlarge the terminal (needs 60×12)", word-wrapped and
/// centred in its area, in shorter forms when the full one doesn't fit, so some of it shows at
/// any size.
///
/// A widget: it holds the glyph set the size is written with, and `render(into:area:)` draws
/// only inside `area` (`Layout.screen`).
struct TooSmallView: Sendable, Equatable {
    let glyphs: GlyphSet

    /// The full message.
    var message: String {
        "enlarge the terminal (needs \(size))"
    }

    private var size: String {
        let times = glyphs == .unicode ? "×" : "x"
        return "\(Layout.minimumWidth)\(times)\(Layout.minimumHeight)"
    }

    /// Draws the message centred in `area`.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    private func render(into canvas: inout Canvas) {
        let candidates = [message, "enlarge to \(size)", "enlarge \(size)", size]
        var lines: [[Span]] = []
        for candidate in candidates {
            let words = candidate.split(separator: " ").map { Span(String($0), Theme.warning) }
            lines = wrap(words, separator: Span(" ", Theme.warning), width: canvas.width)
            if lines.count <= canvas.height { break }
        }
        let top = max(0, (canvas.height - lines.count) / 2)
        for (offset, line) in lines.prefix(canvas.height).enumerated() {
            let width = line.reduce(0) { $0 + $1.width }
            canvas.write(line, x: max(0, (canvas.width - width) / 2), y: top + offset, maxWidth: canvas.width)
        }
    }
}
