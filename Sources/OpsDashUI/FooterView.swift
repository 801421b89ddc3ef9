/// The footer line: the main keys, or the filter being typed, or a y/n question; with the sort
/// and the selected row's position on the right.
struct FooterView {
    let state: DashboardState

    /// Draws the footer on row `y`.
    func render(into buffer: inout CellBuffer, y: Int) {
        let width = buffer.width
        if case .cancelAll(let count)? = state.prompt {
            let text = " Cancel all \(count) unfinished operations? (y/n) "
            buffer.write(text, x: 0, y: y, style: Theme.prompt, maxWidth: width)
            return
        }
        let position = positionText()
        let leftWidth = max(0, width - position.count - 1)
        if state.isEditingFilter {
            let spans = [
                Span("/", Theme.footerKey), Span(state.filter, CellStyle(bold: true)),
                Span("_", CellStyle(bold: true, underline: true)),
                Span("  Enter keeps, Esc clears", Theme.label),
            ]
            buffer.write(spans, x: 0, y: y, maxWidth: leftWidth)
        } else {
            buffer.write(keySpans(fitting: leftWidth), x: 0, y: y, maxWidth: leftWidth)
        }
        buffer.write(position, x: width - position.count, y: y, style: Theme.label)
    }

    /// "12/345" for the selected row, or "0/0".
    private func positionText() -> String {
        let count = state.rows.count(in: state.snapshot)
        return count == 0 ? "0/0" : "\(state.selectedIndex + 1)/\(count)"
    }

    /// The key hints that fit in `width` columns, whole pairs only.
    private func keySpans(fitting width: Int) -> [Span] {
        let glyphs = state.glyphs
        let keys: [(String, String)] = [
            ("q", "quit"), ("?", "help"), (glyphs.upDown, "move"), ("c", "cancel"),
            ("C", "all"), ("p", state.snapshot.isSuspended ? "resume" : "pause"), ("+/-", "limit"),
            ("d", "deps"), (glyphs.enterKey, "details"), ("/", "filter"),
            ("s", "sort:\(state.sort.rawValue)"),
        ]
        var spans: [Span] = []
        var used = 0
        for (key, meaning) in keys {
            let needed = (spans.isEmpty ? 0 : 1) + key.count + 1 + meaning.count
            guard used + needed <= width else { break }
            if !spans.isEmpty { spans.append(Span(" ")) }
            spans.append(Span(key, Theme.footerKey))
            spans.append(Span(" " + meaning))
            used += needed
        }
        return spans
    }
}
