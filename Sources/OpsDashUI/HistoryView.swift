import OpsMonitor

/// The history view (`h`): each of the monitor's per-second series over its window as a chart
/// with its scale (the peak the chart's top stands for), a time axis, and the values of one
/// moment: the newest second, or in a replay the playhead, a cursor on the recording's
/// timeline that ←/→ move (`ReplaySource` seeks there).
///
/// A widget: `init(_:)` takes the series from the state, `render(into:area:)` draws a title
/// line, the charts and the axis inside `area`.
struct HistoryView: Sendable, Equatable {
    /// One series as drawn.
    struct Series: Sendable, Equatable {
        var label: String
        var unit: Unit
        var style: CellStyle
        /// One value a second, oldest first, the last at `end`.
        var values: [Int64]
    }

    /// How a series' values read.
    enum Unit: Sendable, Equatable {
        /// Operations finished in a second: "12/s".
        case perSecond
        /// Bytes completed in a second: "1.2 MB/s".
        case bytesPerSecond
        /// Operations at the end of a second: "12".
        case level

        func text(_ value: Int64) -> String {
            switch self {
            case .perSecond: "\(value)/s"
            case .bytesPerSecond: Format.rate(Double(value), showingZero: true)
            case .level: "\(value)"
            }
        }
    }

    var glyphs: GlyphSet = .unicode
    /// Seconds of the timeline (the history window).
    var window = QueueHistory.defaultWindow
    /// The clock time of the timeline's last second.
    var end = Duration.zero
    /// The series, each with the same seconds.
    var series: [Series] = []
    /// The moment whose values the title shows, and where the cursor stands (a replay's
    /// playhead); nil: the newest second, no cursor.
    var cursor: Duration?

    /// The series' labels, units and styles, in the order drawn.
    static let shown: [(QueueHistory.Series, String, Unit, CellStyle)] = [
        (.succeeded, DisplayState.succeeded.word, .perSecond, DisplayState.succeeded.style),
        (.failed, DisplayState.failed.word, .perSecond, DisplayState.failed.style),
        (.cancelled, DisplayState.cancelled.word, .perSecond, DisplayState.cancelled.style),
        (.bytes, "bytes", .bytesPerSecond, Theme.sparkline),
        (.running, DisplayState.running.word, .level, DisplayState.running.style),
        (.waiting, "not started", .level, DisplayState.waiting.style),
    ]

    init(glyphs: GlyphSet = .unicode, window: Int, end: Duration, history: QueueHistory, cursor: Duration? = nil) {
        self.glyphs = glyphs
        self.window = window
        self.end = end
        self.cursor = cursor
        let seconds = history.seconds(endingAt: end)
        series = Self.shown.map { kind, label, unit, style in
            Series(label: label, unit: unit, style: style, values: seconds.map { $0.value(kind) })
        }
    }

    /// The history the state shows: a replay's whole recording with its playhead as the
    /// cursor, else the picture's own up to its time.
    init(_ state: borrowing DashboardState) {
        if let playback = state.source?.playback, let timeline = playback.timeline {
            self.init(
                glyphs: state.glyphs, window: timeline.window, end: playback.length, history: timeline,
                cursor: playback.position)
        } else {
            let history = state.snapshot.history
            self.init(glyphs: state.glyphs, window: history.window, end: state.snapshot.time, history: history)
        }
    }

    /// Columns of the label on the left and of the scale on the right of each chart.
    static let labelWidth = 12
    static let scaleWidth = 11

    /// Draws the title, a chart per series and the time axis into `area`.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    /// Seconds a column stands for in a chart `columns` wide: `seconds` fit across (one a
    /// column while they fit, so a young history is not squeezed to the window's scale).
    static func secondsPerColumn(window seconds: Int, columns: Int) -> Int {
        columns > 0 ? max(1, (seconds + columns - 1) / columns) : 1
    }

    private func render(into canvas: inout Canvas) {
        let columns = canvas.width - Self.labelWidth - Self.scaleWidth
        let held = series.first?.values.count ?? 0
        let per = Self.secondsPerColumn(window: held, columns: columns)
        var title = [
            Span("history ", Theme.title),
            Span("last \(Playback.clock(.seconds(held))) of \(Playback.clock(.seconds(window)))", Theme.label),
        ]
        if per > 1 { title.append(Span(", 1 column = \(per) s", Theme.label)) }
        title += momentSpans()
        canvas.write(title, x: 0, y: 0, maxWidth: canvas.width)
        guard series.first?.values.isEmpty == false else {
            canvas.write("nothing recorded yet", x: 0, y: 1, style: Theme.label)
            return
        }
        guard columns >= 8, canvas.height >= 3 else { return }
        let rows = max(1, min(4, (canvas.height - 3) / series.count))
        let cursorColumn = cursor.map { columnCount(per: per) - 1 - secondsBeforeEnd($0) / per }
        var y = 1
        for line in series where y + rows <= canvas.height - 1 {
            let shown = Sparkline.downsampled(line.values, per: per)
            let peak = shown.max() ?? 0
            canvas.write(line.label, x: 0, y: y, style: line.style, maxWidth: Self.labelWidth - 1)
            canvas.write(
                Format.fit(line.unit.text(peak), Self.scaleWidth - 1, right: true),
                x: canvas.width - Self.scaleWidth + 1,
                y: y, style: Theme.label)
            let left = Self.labelWidth + columns - shown.count
            for row in 0..<rows {
                for (index, value) in shown.enumerated() {
                    let glyph = Sparkline.chartCell(value, peak: peak, row: row, height: rows, glyphs: glyphs)
                    var style = line.style
                    if index == cursorColumn { style.reverse = true }
                    canvas[left + index, y + row] = Cell(glyph, style: style)
                }
            }
            y += rows
        }
        renderAxis(into: &canvas, y: y, columns: columns, per: per, cursorColumn: cursorColumn)
    }

    /// "-15:00 … -7:30 … now" under the charts (in a replay: recording times), and "▲ 0:42"
    /// under the cursor.
    private func renderAxis(into canvas: inout Canvas, y: Int, columns: Int, per: Int, cursorColumn: Int?) {
        let span = Duration.seconds(min(columns * per, series.first?.values.count ?? 0))
        let isReplay = cursor != nil
        func label(_ before: Duration) -> String {
            isReplay
                ? Playback.clock(max(.zero, end - before)) : (before == .zero ? "now" : "-" + Playback.clock(before))
        }
        let right = label(.zero)
        let used = columnCount(per: per)
        canvas.write(label(span), x: Self.labelWidth + columns - used, y: y, style: Theme.label)
        if used >= 24 {
            canvas.write(label(span / 2), x: Self.labelWidth + columns - used / 2 - 2, y: y, style: Theme.label)
        }
        canvas.write(right, x: Self.labelWidth + columns - DisplayWidth.of(right), y: y, style: Theme.label)
        if let cursorColumn, let cursor {
            let left = Self.labelWidth + columns - columnCount(per: per) + cursorColumn
            // The mark under the cursor's column, its time after it, or before it near the edge.
            let mark = glyphs == .unicode ? "▲" : "^"
            let time = Playback.clock(cursor)
            let fits = left + 1 + time.count < Self.labelWidth + columns
            let text = fits ? mark + " " + time : time + " " + mark
            canvas.write(text, x: fits ? left : left - text.count + 1, y: y + 1, style: Theme.title)
        }
    }

    /// Columns the values take at `per` seconds a column.
    private func columnCount(per: Int) -> Int {
        let count = series.first?.values.count ?? 0
        return (count + per - 1) / max(1, per)
    }

    /// Whole seconds from `time` to the timeline's last second.
    private func secondsBeforeEnd(_ time: Duration) -> Int {
        Int(max(0, QueueHistory.second(of: end) - QueueHistory.second(of: time)))
    }

    /// ": at 0:42 3 succeeded 1 failed 1.2 MB/s 4 running 12 not started" for the cursor's
    /// second, or the newest.
    private func momentSpans() -> [Span] {
        guard let count = series.first?.values.count, count > 0 else { return [] }
        let index = count - 1 - min(count - 1, cursor.map(secondsBeforeEnd) ?? 0)
        var spans = [Span(" \(glyphs.vertical) ", Theme.border)]
        spans.append(Span(cursor.map { "at \(Playback.clock($0)) " } ?? "newest second ", Theme.label))
        for line in series {
            let value = line.values[index]
            spans.append(Span(line.unit == .level ? "\(value)" : line.unit.text(value), line.style))
            spans.append(Span(" \(line.label)  ", Theme.label))
        }
        return spans
    }
}

extension DashboardState {
    /// With the history view open on a replay's timeline: the recording time one column of
    /// the timeline stands for at this terminal width (←/→ move the cursor, the playhead, by
    /// it); nil otherwise.
    package var historyCursorStep: Duration? {
        guard showHistory, let playback = source?.playback, let timeline = playback.timeline else { return nil }
        let held = timeline.seconds(endingAt: playback.length).count
        let columns = width - HistoryView.labelWidth - HistoryView.scaleWidth
        return .seconds(HistoryView.secondsPerColumn(window: held, columns: columns))
    }
}
