import OpsMonitor

/// The details pane for the selected operation: summary, state history, dependencies and
/// dependents with their states, outcome, retry log.
struct DetailsView {
    let state: DashboardState

    /// Width of the label column ("history", "depends on", …).
    private static let labelWidth = 11

    /// Draws the pane into `band`: a titled rule, then its lines from `state.detailsScroll`.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        let width = buffer.width
        guard let operation = state.selectedOperation else {
            buffer.rule(y: band.y, width: width, title: "Details", glyphs: state.glyphs)
            buffer.write("nothing selected", x: 1, y: band.y + 1, style: Theme.label)
            return
        }
        let lines = lines(width: width)
        let visible = band.height - 1
        let first = min(max(0, state.detailsScroll), max(0, lines.count - visible))
        var title = "Details #\(operation.id)"
        if lines.count > visible {
            let arrows = state.glyphs == .unicode ? "↑↓" : "Up/Dn"
            title += " \(first + 1)-\(min(lines.count, first + visible)) of \(lines.count)"
            title += state.isDetailsFocused ? ", \(arrows) scroll, Tab back" : ", Tab scrolls"
        }
        buffer.rule(y: band.y, width: width, title: title, glyphs: state.glyphs)
        for offset in 0..<visible where first + offset < lines.count {
            buffer.write(lines[first + offset], x: 0, y: band.y + 1 + offset, maxWidth: width)
        }
    }

    /// Every line of the pane for a terminal `width` columns wide: labels in the first column,
    /// long values (the name, dependency lists, the error) wrapped below each other.
    func lines(width: Int) -> [[Span]] {
        guard let operation = state.selectedOperation else { return [] }
        let valueWidth = max(1, width - Self.labelWidth - 1)
        var result: [[Span]] = []
        for (label, spans) in sections(operation) {
            for (offset, line) in wrap(spans, separator: Span(" "), width: valueWidth).enumerated() {
                let title = Span(Format.fit(offset == 0 ? label : "", Self.labelWidth), Theme.label)
                result.append([Span(" "), title] + line)
            }
        }
        return result
    }

    /// The pane's labelled sections, in display order.
    private func sections(_ operation: OperationSnapshot) -> [(String, [Span])] {
        let snapshot = state.snapshot
        var result: [(String, [Span])] = [("name", [Span(operation.name)])]
        var summary = [
            Span(operation.displayState.word, operation.displayState.style),
            Span(operation.kind.rawValue, Theme.label),
        ]
        if operation.totalBytes > 0 {
            summary.append(Span(Format.percent(operation.fraction)))
            summary.append(Span(operation.amountText))
        }
        if operation.lifecycle == .executing, operation.bytesPerSecond > 0 {
            summary.append(Span(operation.rateText, CellStyle(foreground: .cyan)))
        }
        summary.append(Span("retries \(operation.retries)", Theme.label))
        result.append(("state", summary))

        var history: [Span] = []
        for (offset, change) in operation.history.enumerated() {
            let arrow = offset == 0 ? "" : state.glyphs.arrow + " "
            history.append(Span(arrow + Format.timestamp(change.time), Theme.label))
            let entered = DisplayState(change.lifecycle, change.outcome)
            history.append(Span(entered.word, entered.style))
        }
        result.append(("history", history.isEmpty ? [Span("none", Theme.label)] : history))
        result.append(("depends on", related(operation.dependencies)))
        // Dependents need a scan; this runs only while the pane is open.
        var dependents: [Int] = []
        for other in snapshot.operations where other.dependencies.contains(operation.id) {
            dependents.append(other.id)
        }
        result.append(("dependents", related(dependents)))
        if let outcome = operation.outcome {
            let ended = DisplayState(.finished, outcome)
            var spans = [Span(ended.word, ended.style)]
            if let message = operation.message { spans += words(message) }
            result.append(("outcome", spans))
        }
        for (offset, entry) in operation.retryLog.enumerated() {
            result.append((offset == 0 ? "retry log" : "", words(entry, Theme.warning)))
        }
        return result
    }

    /// "#3 name succeeded, #7 name running", or "none"; dependencies looked up in O(log n) each.
    private func related(_ ids: [Int]) -> [Span] {
        guard !ids.isEmpty else { return [Span("none", Theme.label)] }
        var spans: [Span] = []
        for (offset, id) in ids.enumerated() {
            let comma = offset == ids.count - 1 ? "" : ","
            if let other = state.snapshot.operation(id: id) {
                spans.append(Span("#\(id) \(other.name)"))
                spans.append(Span(other.displayState.word + comma, other.displayState.style))
            } else {
                spans.append(Span("#\(id) (evicted)\(comma)", Theme.label))
            }
        }
        return spans
    }

    /// `text` as one span per word, so it wraps between words.
    private func words(_ text: String, _ style: CellStyle = .plain) -> [Span] {
        text.split(separator: " ").map { Span(String($0), style) }
    }
}

/// One line of the event log pane: an entry, and how many identical entries in a row it
/// stands for (an operator pressing the same key again, a retry repeating).
struct LogLine {
    /// The newest of the entries the line stands for.
    var entry: LogEntry
    /// How many entries in a row said the same.
    var repeats: Int

    /// Whether `next` repeats `entry` (state changes never do: each names its transition).
    static func repeats(_ next: LogEntry, _ entry: LogEntry) -> Bool {
        next.kind != .state && next.kind == entry.kind && next.operationID == entry.operationID
            && next.text == entry.text
    }

    /// The newest `limit` lines of `log`, oldest first, repeats merged. O(lines shown + repeats).
    static func last(_ limit: Int, of log: [LogEntry]) -> [LogLine] {
        guard limit > 0 else { return [] }
        var lines: [LogLine] = []
        var index = log.count - 1
        while index >= 0 {
            let entry = log[index]
            var count = 1
            while index - count >= 0 && repeats(log[index - count], entry) { count += 1 }
            if lines.count == limit { break }
            lines.append(LogLine(entry: entry, repeats: count))
            index -= count
        }
        return lines.reversed()
    }

    /// How many lines `log` makes once repeats are merged. O(n).
    static func count(_ log: [LogEntry]) -> Int {
        var count = 0
        var previous: LogEntry?
        for entry in log {
            if let previous, repeats(entry, previous) { continue }
            count += 1
            previous = entry
        }
        return count
    }
}

/// The event log pane: the last entries of the snapshot's log, time-stamped, newest at bottom,
/// repeated lines merged ("operator cancelled #3 ×3").
struct LogView {
    let state: DashboardState
    /// Rows from earlier frames, reused when their entry didn't change.
    var cache: RenderCache? = nil

    /// Draws a titled rule, then the newest lines that fit, oldest first.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        buffer.rule(y: band.y, width: buffer.width, title: "Events", glyphs: state.glyphs)
        let shown = LogLine.last(band.height - 1, of: state.snapshot.log)
        let times = state.glyphs == .unicode ? "×" : "x"
        for (offset, line) in shown.enumerated() {
            let entry = line.entry
            let y = band.y + 1 + offset
            let key = RenderCache.LogKey(
                entry: entry, repeats: line.repeats, width: buffer.width, glyphs: state.glyphs)
            if let cache, cache.drawLogRow(key: key, y: y, into: &buffer) { continue }
            var spans = [
                Span(Format.fit(Format.timestamp(entry.time), 9, right: true), Theme.label)
            ]
            spans.append(Span(" "))
            if let id = entry.operationID { spans.append(Span("#\(id) ", Theme.title)) }
            spans.append(Span(text(entry), style(entry.kind)))
            if line.repeats > 1 { spans.append(Span(" \(times)\(line.repeats)", Theme.title)) }
            buffer.write(spans, x: 0, y: y, maxWidth: buffer.width)
            cache?.storeLogRow(key: key, y: y, from: buffer)
        }
    }

    /// The entry's line; a state change in the dashboard's state words:
    /// "fetch: running → succeeded".
    private func text(_ entry: LogEntry) -> String {
        guard let change = entry.stateChange else { return entry.text }
        let from = DisplayState(change.from, nil).word
        let to = DisplayState(change.to, change.outcome).word
        let message = change.message.map { " (\($0))" } ?? ""
        return "\(change.name): \(from) \(state.glyphs.arrow) \(to)\(message)"
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
