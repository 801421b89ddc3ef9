import OpsMonitor

/// The event log pane: the last entries of the snapshot's log, time-stamped, newest at bottom,
/// repeated lines merged ("operator cancelled #3 ×3").
///
/// A widget: `init(_:lines:)` takes from the state the lines it shows, and
/// `render(into:area:cache:)` draws a titled rule and them inside `area`.
struct LogView {
    /// Unicode or ASCII drawing.
    var glyphs: GlyphSet = .unicode
    /// The lines shown, oldest first.
    var lines: [LogLine] = []
    /// Only the queue's changes and commands (`a`): the title says so.
    var commandsOnly = false
    /// Whether a state change with a printable-ASCII name is written part by part into the
    /// cells (`writeStateLine`); tests turn it off to draw the same line through spans.
    var writesStatesDirectly = true

    /// A log of `lines`.
    init(glyphs: GlyphSet = .unicode, lines: [LogLine] = [], commandsOnly: Bool = false) {
        self.glyphs = glyphs
        self.lines = lines
        self.commandsOnly = commandsOnly
    }

    /// The newest `count` lines of `state`'s log (of its commands after `a`).
    init(_ state: borrowing DashboardState, lines count: Int) {
        glyphs = state.glyphs
        commandsOnly = state.showCommandLog
        lines = state.shownLogLines(count)
    }

    /// The pane's title.
    var title: String { commandsOnly ? "Events: queue changes and commands (a: all)" : "Events" }

    /// Draws a titled rule, then the lines, inside `area`; with a `cache`, lines drawn before
    /// from the same entry are copied instead of drawn again.
    func render(into buffer: inout CellBuffer, area: Rect, cache: RenderCache? = nil) {
        buffer.draw(in: area) { render(into: &$0, cache: cache) }
    }

    private func render(into canvas: inout Canvas, cache: RenderCache?) {
        canvas.rule(y: 0, width: canvas.width, title: title, glyphs: glyphs)
        let times = glyphs == .unicode ? "×" : "x"
        var spans: [Span] = []
        // By index, each line read where it is: the key copies its entry once (a line copied
        // out of the array, then its entry out of the line, was three copies a line).
        for offset in 0..<min(lines.count, max(0, canvas.height - 1)) {
            let y = 1 + offset
            let key = RenderCache.LogKey(
                entry: lines[offset].entry, repeats: lines[offset].repeats, width: canvas.width, glyphs: glyphs)
            if let cache, cache.drawLogRow(key: key, y: y, into: &canvas) { continue }
            let entry = key.entry
            Self.writeTime(entry.time, into: &canvas, y: y)
            if writesStatesDirectly,
                writeStateLine(entry, repeats: key.repeats, times: times, into: &canvas, y: y)
            {
                cache?.storeLogRow(key: key, y: y, from: canvas)
                continue
            }
            // One array for every line's spans, its room kept.
            spans.removeAll(keepingCapacity: true)
            spans.append(Span(" "))
            if let id = entry.operationID { spans.append(Span("#\(id) ", Theme.title)) }
            appendTextSpans(entry, arrow: " \(glyphs.arrow) ", to: &spans)
            if key.repeats > 1 { spans.append(Span(" \(times)\(key.repeats)", Theme.title)) }
            canvas.write(spans, x: Self.timeWidth, y: y, maxWidth: canvas.width - Self.timeWidth)
            cache?.storeLogRow(key: key, y: y, from: canvas)
        }
    }

    /// Columns of a line's time: `Format.timestamp` right-aligned.
    static let timeWidth = 9

    /// Draws `Format.fit(Format.timestamp(time), timeWidth, right: true)` at the start of row
    /// `y` in the label style: as digits straight into the cells (five new lines a busy frame),
    /// or, for a time of 10 hours or more (cut with an ellipsis), as that text.
    static func writeTime(_ time: Duration, into canvas: inout Canvas, y: Int) {
        let (seconds, attoseconds) = time.components
        let tenths = max(0, seconds) * 10 + max(0, attoseconds) / 100_000_000_000_000_000
        let whole = tenths / 10
        let minutes = whole / 60
        let hours = minutes / 60
        guard hours < 10 else {
            canvas.write(
                Format.fit(Format.timestamp(time), timeWidth, right: true), x: 0, y: y, style: Theme.label,
                maxWidth: timeWidth)
            return
        }
        // "m:ss.t" or "h:mm:ss.t", right-aligned.
        let lead = minutes < 60 ? Int(minutes) : Int(hours)
        let width = Digits.count(lead) + (minutes < 60 ? 5 : 8)
        let style = Theme.label
        canvas.writeScalars(x: 0, y: y, maxWidth: timeWidth) { line in
            for _ in 0..<(timeWidth - width) { line.put(" ", style: style) }
            line.put(digits: lead, style: style)
            func twoDigits(_ value: Int64) {
                line.put(":", style: style)
                if value < 10 { line.put("0", style: style) }
                line.put(digits: Int(value), style: style)
            }
            if minutes >= 60 { twoDigits(minutes % 60) }
            twoDigits(whole % 60)
            line.put(".", style: style)
            line.put(digits: Int(tenths % 10), style: style)
        }
    }

    /// Writes state change `entry` (its name printable ASCII) from the time's end of row `y`,
    /// part by part straight into the cells: the cells the spans of `appendTextSpans` draw,
    /// with no string built, joined or measured (five new lines a busy frame). False, with
    /// nothing written, for any other entry.
    private func writeStateLine(
        _ entry: LogEntry, repeats: Int, times: String, into canvas: inout Canvas, y: Int
    ) -> Bool {
        guard let parts = entry.storedStateParts, let id = entry.operationID else { return false }
        // No stored name: "op-<id>", a prefix the id completes as a class's does.
        let name = parts.name ?? OperationSnapshot.defaultNamePrefix
        let addsID = parts.name == nil || parts.addsID
        guard printableASCIIColumns(name) != nil else { return false }
        let style = style(entry.kind)
        let end = canvas.width
        let unicode = glyphs == .unicode
        var x = canvas.writeScalars(x: Self.timeWidth, y: y) { line in
            line.put(" ", style: .plain)
            line.put("#", style: Theme.title)
            line.put(digits: id, style: Theme.title)
            line.put(" ", style: Theme.title)
            line.put(printableASCII: name, style: style)
            if addsID { line.put(digits: id, style: style) }
            line.put(ascii: ": ", style: style)
            line.put(printableASCII: DisplayState(parts.from, nil).word, style: style)
            // The arrow with a space either side.
            line.put(" ", style: style)
            if unicode { line.put("→", style: style) } else { line.put(ascii: "->", style: style) }
            line.put(" ", style: style)
            line.put(printableASCII: DisplayState(parts.to, parts.outcome).word, style: style)
        }
        // A message or a count of repeats is rare: drawn as spans (control characters shown).
        if let message = parts.message {
            x = canvas.write([Span(" (\(message))", style)], x: x, y: y, maxWidth: end - x)
        }
        if repeats > 1 { canvas.write([Span(" \(times)\(repeats)", Theme.title)], x: x, y: y, maxWidth: end - x) }
        return true
    }

    /// The entry's line in its kind's style. A state change whose name is printable ASCII is
    /// left in its parts (name, state words, arrow), each written as it is, rather than joined
    /// into one string first; any other name is joined with what follows, as a terminal would
    /// join its last character with the next ones. Appended to `spans`; `arrow` is the arrow
    /// with a space either side.
    private func appendTextSpans(_ entry: LogEntry, arrow: String, to spans: inout [Span]) {
        let style = style(entry.kind)
        guard let change = entry.stateChange, printableASCIIColumns(change.name) != nil else {
            spans.append(Span(text(entry), style))
            return
        }
        spans.append(Span(change.name, style))
        spans.append(Span(": ", style))
        spans.append(Span(DisplayState(change.from, nil).word, style))
        spans.append(Span(arrow, style))
        spans.append(Span(DisplayState(change.to, change.outcome).word, style))
        if let message = change.message { spans.append(Span(" (\(message))", style)) }
    }

    /// The entry's line; a state change in the dashboard's state words:
    /// "fetch: running → succeeded".
    private func text(_ entry: LogEntry) -> String {
        guard let change = entry.stateChange else { return entry.text }
        let from = DisplayState(change.from, nil).word
        let to = DisplayState(change.to, change.outcome).word
        let message = change.message.map { " (\($0))" } ?? ""
        return "\(change.name): \(from) \(glyphs.arrow) \(to)\(message)"
    }

    private func style(_ kind: LogEntry.Kind) -> CellStyle {
        switch kind {
        case .state: .plain
        case .queue: CellStyle(foreground: .cyan)
        case .action: CellStyle(foreground: .yellow)
        case .retry: CellStyle(foreground: .magenta)
        }
    }
}
