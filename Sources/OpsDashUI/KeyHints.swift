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
        if let notice = state.notice {
            buffer.write(notice, x: 0, y: y, style: Theme.warning, maxWidth: leftWidth)
        } else if state.isEditingFilter {
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

/// The help overlay: a centred box listing every key.
struct HelpOverlay {
    let glyphs: GlyphSet

    /// Every key and what it does, in the order the overlay lists them.
    var entries: [(key: String, meaning: String)] {
        let arrows = glyphs == .unicode ? "↑/↓ j/k" : "Up/Down j/k"
        return [
            (arrows, "move the selection"),
            ("PgUp/PgDn", "move a page"),
            ("Home/End", "first / last operation"),
            ("c", "cancel the selected operation"),
            ("C", "cancel all unfinished (asks y/n)"),
            ("p  space", "pause / resume the queue"),
            ("+ =  -", "raise / lower concurrency (1-64)"),
            ("d", "dependency tree"),
            ("Enter", "details of the selected operation"),
            ("/", "filter by name, #id or state"),
            ("s", "sort: id, state, progress, rate"),
            ("Esc", "close pane / clear filter"),
            ("?", "this help"),
            ("q", "quit"),
        ]
    }

    /// Draws the box centred in the buffer, clipped when the terminal is small.
    func render(into buffer: inout CellBuffer) {
        let keyWidth = 13
        let contentWidth = entries.reduce(0) { max($0, keyWidth + $1.meaning.count) }
        let width = min(buffer.width, contentWidth + 4)
        let height = min(buffer.height, entries.count + 4)
        let x = (buffer.width - width) / 2
        let y = (buffer.height - height) / 2
        buffer.box(x: x, y: y, width: width, height: height, glyphs: glyphs)
        buffer.write(" Keys ", x: x + 2, y: y, style: Theme.title, maxWidth: max(0, width - 4))
        let inner = max(0, width - 4)
        for (offset, entry) in entries.enumerated() {
            let row = y + 2 + offset
            guard row < y + height - 1 else { break }
            buffer.write(
                [Span(Format.fit(entry.key, keyWidth), Theme.footerKey), Span(entry.meaning)],
                x: x + 2, y: row, maxWidth: inner)
        }
        let closing = "? or Esc closes"
        if height > 2, y + 1 < y + height - 1 {
            buffer.write(closing, x: x + width - 2 - closing.count, y: y + 1, style: Theme.label)
        }
    }
}
