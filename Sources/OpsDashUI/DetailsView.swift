import OpsMonitor

/// The details pane for the selected operation: summary, state history, dependencies and
/// dependents with their states, outcome, retry log.
///
/// A widget: `init(_:)` takes from the state the selected operation and the operations around
/// it, and `render(into:area:)` draws a titled rule and the pane's lines inside `area`.
struct DetailsView {
    /// A dependency or dependent: its id, and its name and state unless it was evicted.
    struct Related: Equatable {
        var id: Int
        var name: String?
        var state: DisplayState?
    }

    /// Unicode or ASCII drawing.
    var glyphs: GlyphSet = .unicode
    /// The selected operation; nil when nothing is selected.
    var operation: OperationSnapshot?
    /// What it depends on.
    var dependencies: [Related] = []
    /// What depends on it.
    var dependents: [Related] = []
    /// Wait and run percentiles of the recently finished operations of its kind; nil when none.
    var recent: TimingPercentiles?
    /// The first line shown.
    var scroll = 0
    /// Whether the movement keys scroll the pane (the title says how to).
    var isFocused = false

    /// Width of the label column ("history", "depends on", …).
    private static let labelWidth = 11

    /// A pane showing `operation`.
    init(
        glyphs: GlyphSet = .unicode, operation: OperationSnapshot? = nil, dependencies: [Related] = [],
        dependents: [Related] = [], recent: TimingPercentiles? = nil, scroll: Int = 0, isFocused: Bool = false
    ) {
        self.glyphs = glyphs
        self.operation = operation
        self.dependencies = dependencies
        self.dependents = dependents
        self.recent = recent
        self.scroll = scroll
        self.isFocused = isFocused
    }

    /// The pane for `state`'s selected operation; dependencies are looked up in O(log n) each,
    /// dependents need a scan (this runs only while the pane is open).
    init(_ state: borrowing DashboardState) {
        glyphs = state.glyphs
        scroll = state.detailsScroll
        isFocused = state.isDetailsFocused
        guard let operation = state.selectedOperation else { return }
        self.operation = operation
        let snapshot = state.snapshot
        recent = snapshot.recentTimings.percentiles(of: operation.kind)
        dependencies = operation.dependencies.map { id in
            let other = snapshot.operation(id: id)
            return Related(id: id, name: other?.name, state: other?.displayState)
        }
        for other in snapshot.operations where other.dependencies.contains(operation.id) {
            dependents.append(Related(id: other.id, name: other.name, state: other.displayState))
        }
    }

    /// Draws the pane inside `area`: a titled rule, then its lines from `scroll`.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    private func render(into canvas: inout Canvas) {
        let width = canvas.width
        guard let operation else {
            canvas.rule(y: 0, width: width, title: "Details", glyphs: glyphs)
            canvas.write("nothing selected", x: 1, y: 1, style: Theme.label)
            return
        }
        let lines = lines(width: width)
        let visible = canvas.height - 1
        let first = min(max(0, scroll), max(0, lines.count - visible))
        var title = "Details #\(operation.id)"
        if lines.count > visible {
            let arrows = glyphs == .unicode ? "↑↓" : "Up/Dn"
            title += " \(first + 1)-\(min(lines.count, first + visible)) of \(lines.count)"
            title += isFocused ? ", \(arrows) scroll, Tab back" : ", Tab scrolls"
        }
        canvas.rule(y: 0, width: width, title: title, glyphs: glyphs)
        for offset in 0..<max(0, visible) where first + offset < lines.count {
            canvas.write(lines[first + offset], x: 0, y: 1 + offset, maxWidth: width)
        }
    }

    /// Every line of the pane for a pane `width` columns wide: labels in the first column,
    /// long values (the name, dependency lists, the error) wrapped below each other.
    func lines(width: Int) -> [[Span]] {
        guard let operation else { return [] }
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
        var result: [(String, [Span])] = [("name", [Span(operation.name)])]
        var summary = [
            Span(operation.displayState.word, operation.displayState.style),
            Span(operation.kind.rawValue, Theme.label),
        ]
        if operation.totalUnits > 0 {
            summary.append(Span(Format.percent(operation.fraction)))
            summary.append(Span(operation.amountText))
        }
        if operation.lifecycle == .executing, operation.unitsPerSecond > 0 {
            summary.append(Span(operation.rateText, CellStyle(foreground: .cyan)))
        }
        summary.append(Span("retries \(operation.retries)", Theme.label))
        result.append(("state", summary))

        var history: [Span] = []
        for (offset, change) in operation.history.enumerated() {
            let arrow = offset == 0 ? "" : glyphs.arrow + " "
            history.append(Span(arrow + Format.timestamp(change.time), Theme.label))
            let entered = DisplayState(change.lifecycle, change.outcome)
            history.append(Span(entered.word, entered.style))
        }
        result.append(("history", history.isEmpty ? [Span("none", Theme.label)] : history))
        if let recent {
            let finishes =
                "last \(recent.count) \(operation.kind.rawValue) \(recent.count == 1 ? "finish" : "finishes")"
            result.append(("wait time", percentiles(recent.wait) + [Span(finishes, Theme.label)]))
            result.append(("run time", percentiles(recent.run)))
        }
        result.append(("depends on", related(dependencies)))
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

    /// "p50 0.2s p95 1.1s p99 3.0s".
    private func percentiles(_ values: Percentiles) -> [Span] {
        [("p50", values.p50), ("p95", values.p95), ("p99", values.p99)].flatMap { name, value in
            [Span(name, Theme.label), Span(Format.seconds(value))]
        }
    }

    /// "#3 name succeeded, #7 name running", or "none".
    private func related(_ operations: [Related]) -> [Span] {
        guard !operations.isEmpty else { return [Span("none", Theme.label)] }
        var spans: [Span] = []
        for (offset, other) in operations.enumerated() {
            let comma = offset == operations.count - 1 ? "" : ","
            if let name = other.name, let state = other.state {
                spans.append(Span("#\(other.id) \(name)"))
                spans.append(Span(state.word + comma, state.style))
            } else {
                spans.append(Span("#\(other.id) (evicted)\(comma)", Theme.label))
            }
        }
        return spans
    }

    /// `text` as one span per word, so it wraps between words.
    private func words(_ text: String, _ style: CellStyle = .plain) -> [Span] {
        text.split(separator: " ").map { Span(String($0), style) }
    }
}
