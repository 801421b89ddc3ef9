/// The fleet list screen: a header, one row per published queue (app/queue, pid, host,
/// running/waiting/failed, a throughput sparkline, viewers, control or read-only, last seen),
/// departed apps greyed, and a footer with the keys, the filter being typed or a message.
///
/// A widget: it takes what it shows from the state, and draws only inside its area.
package struct FleetListView: Sendable, Equatable {
    let rows: [FleetRow]
    let selectedIndex: Int
    let total: Int
    let departed: Int
    let filter: String
    let isEditingFilter: Bool
    let message: String?
    let keepDeparted: Int
    let glyphs: GlyphSet

    package init(_ state: FleetListState) {
        rows = state.shownRows
        selectedIndex = state.selectedIndex
        total = state.rows.filter { $0.note == nil }.count
        departed = state.rows.filter(\.departed).count
        filter = state.filter
        isEditingFilter = state.isEditingFilter
        message = state.message
        keepDeparted = state.keepDeparted
        glyphs = state.glyphs
    }

    /// The fleet list's help: its keys and its columns.
    static func help(_ state: FleetListState) -> HelpOverlay {
        let keys = FleetKeys.table.map { (key: $0.label.text(state.glyphs), meaning: $0.help) }
        let columns: [(key: String, meaning: String)] = [
            ("APP/QUEUE", "the app and the queue it publishes"),
            ("PID  HOST", "the app's process id and machine (HOST from \(hostFromWidth) columns)"),
            ("RUN  WAIT", "operations running; waiting or ready"),
            ("FAIL", "operations that failed"),
            ("DONE/S", "operations finished per second over the last seconds"),
            ("VIEW", "viewers attached to the app"),
            ("CONTROL", "control: you may steer it; read-only: you may only watch"),
            ("SEEN", "when the app last answered; gone: it went away (listed \(state.keepDeparted) s more)"),
        ]
        return HelpOverlay(
            glyphs: state.glyphs, sections: [("Keys", keys), ("Columns", columns)], scroll: state.helpScroll)
    }

    /// Sparkline columns.
    static let sparkWidth = 10
    /// From this width on, the HOST column is shown.
    static let hostFromWidth = 100

    /// The whole screen for `state`.
    package static func frame(_ state: FleetListState) -> CellBuffer {
        var buffer = CellBuffer(width: state.width, height: state.height)
        let screen = Rect(x: 0, y: 0, width: state.width, height: state.height)
        FleetListView(state).render(into: &buffer, area: screen)
        if state.showHelp {
            let help = help(state)
            help.render(
                into: &buffer, area: HelpOverlay.box(lines: help.lines(terminalWidth: state.width).count, in: screen))
        }
        return buffer
    }

    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    private struct Column {
        let title: String
        let width: Int
        let right: Bool
    }

    private func columns(width: Int) -> (label: Int, rest: [Column]) {
        var rest = [Column(title: "PID", width: 7, right: true)]
        if width >= Self.hostFromWidth { rest.append(Column(title: "HOST", width: 12, right: false)) }
        rest += [
            Column(title: "RUN", width: 5, right: true), Column(title: "WAIT", width: 6, right: true),
            Column(title: "FAIL", width: 5, right: true),
            Column(title: "DONE/S", width: Self.sparkWidth, right: false),
            Column(title: "VIEW", width: 4, right: true), Column(title: "CONTROL", width: 9, right: false),
            Column(title: "SEEN", width: 8, right: true),
        ]
        let used = rest.reduce(0) { $0 + $1.width + 1 }
        return (max(8, width - used), rest)
    }

    private func render(into canvas: inout Canvas) {
        let width = canvas.width
        let height = canvas.height
        guard width > 0, height > 0 else { return }
        let bar = glyphs == .unicode ? " │ " : " | "
        var header = [Span("opsdash", Theme.title), Span(bar), Span("fleet", Theme.title), Span(bar)]
        header.append(Span("\(total) published queue\(total == 1 ? "" : "s")"))
        if departed > 0 {
            header.append(Span(", \(departed) departed (listed \(keepDeparted) s)", Theme.label))
        }
        if !filter.isEmpty {
            header.append(Span(bar))
            header.append(Span("filter: \(filter) (\(rows.count) shown)", Theme.warning))
        }
        canvas.write(header, x: 0, y: 0, maxWidth: width)
        guard height > 2 else { return }
        let (labelWidth, rest) = columns(width: width)
        var titles = [Span(pad("APP/QUEUE", labelWidth, right: false), Theme.columnHeader)]
        for column in rest {
            titles.append(Span(" "))
            titles.append(Span(pad(column.title, column.width, right: column.right), Theme.columnHeader))
        }
        canvas.write(titles, x: 0, y: 1, maxWidth: width)
        let body = max(0, height - 3)
        let top = rows.count > body ? max(0, min(selectedIndex - body / 2, rows.count - body)) : 0
        if rows.isEmpty {
            let text =
                total == 0 ? "no published queues (start an app that publishes one)" : "no app matches the filter"
            canvas.write(text, x: 0, y: 2, style: Theme.label, maxWidth: width)
        }
        for (offset, row) in rows.dropFirst(top).prefix(body).enumerated() {
            let y = 2 + offset
            let selected = top + offset == selectedIndex
            canvas.write(cells(row, labelWidth: labelWidth, rest: rest), x: 0, y: y, maxWidth: width)
            if selected { canvas.reverse(y: y, x: 0, width: width) }
        }
        canvas.write(footer(), x: 0, y: height - 1, maxWidth: width)
    }

    private func cells(_ row: FleetRow, labelWidth: Int, rest: [Column]) -> [Span] {
        if let note = row.note { return [Span("\(row.host): \(note)", Theme.error)] }
        let base = row.departed ? CellStyle(dim: true) : CellStyle.plain
        var spans = [Span(pad(row.label, labelWidth, right: false), base)]
        for column in rest {
            spans.append(Span(" ", base))
            var style = base
            let text: String
            switch column.title {
            case "PID": text = String(row.pid)
            case "HOST": text = row.host
            case "RUN": text = row.running.map(String.init) ?? "-"
            case "WAIT": text = row.waiting.map(String.init) ?? "-"
            case "FAIL":
                text = row.failed.map(String.init) ?? "-"
                if let failed = row.failed, failed > 0, !row.departed { style = Theme.error }
            case "DONE/S": text = Self.sparkline(row.throughput, width: column.width, glyphs: glyphs)
            case "VIEW": text = String(row.viewers)
            case "CONTROL": text = row.control.map { $0 ? "control" : "read-only" } ?? "-"
            default: text = row.departed ? "gone" : Self.ago(row.lastSeenAgo)
            }
            spans.append(Span(pad(text, column.width, right: column.right), style))
        }
        return spans
    }

    private func footer() -> [Span] {
        if isEditingFilter {
            return [Span("filter: \(filter)", Theme.prompt), Span(" Enter keep  Esc undo", Theme.label)]
        }
        if let message { return [Span(message, Theme.warning)] }
        var spans: [Span] = []
        for binding in FleetKeys.table {
            guard let hint = binding.hint else { continue }
            if !spans.isEmpty { spans.append(Span(" ")) }
            spans.append(
                Span(binding.label.text(glyphs).split(separator: " ").first.map(String.init) ?? "", Theme.footerKey))
            spans.append(Span(" \(hint)"))
        }
        return spans
    }

    /// `text` cut or padded to `width` columns (on the left when `right`).
    private func pad(_ text: String, _ width: Int, right: Bool) -> String {
        let cut = DisplayWidth.prefix(displayable(text), columns: width)
        let fill = String(repeating: " ", count: max(0, width - cut.width))
        return right ? fill + cut.text : cut.text + fill
    }

    /// The last `width` samples as bars scaled to their highest (blank for no samples; the
    /// lowest bar for zero).
    static func sparkline(_ samples: [Double], width: Int, glyphs: GlyphSet) -> String {
        let levels: [Character] = glyphs == .unicode ? Array("▁▂▃▄▅▆▇█") : Array("_.-=+*#@")
        let shown = samples.suffix(width)
        let top = shown.max() ?? 0
        return String(
            shown.map { sample -> Character in
                guard top > 0, sample > 0 else { return levels[0] }
                let index = Int((sample / top * Double(levels.count - 1)).rounded())
                return levels[max(0, min(levels.count - 1, index))]
            })
    }

    /// "now", "5s", "3m", "2h" ago; "-" for never.
    static func ago(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "-" }
        let whole = max(0, Int(seconds))
        if whole < 2 { return "now" }
        if whole < 120 { return "\(whole)s ago" }
        if whole < 7_200 { return "\(whole / 60)m ago" }
        return "\(whole / 3_600)h ago"
    }
}

extension FleetListView: Widget {}
