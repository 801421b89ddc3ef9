import OpsMonitor

/// The details pane for the selected operation: summary, state history, dependencies and
/// dependents with their states, outcome, retry log.
struct DetailsView {
    let state: DashboardState

    /// Width of the label column ("history", "depends on", …).
    private static let labelWidth = 11

    /// Draws the pane into `band`: a titled rule, then as many lines as fit.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        let width = buffer.width
        guard let operation = state.selectedOperation else {
            buffer.rule(y: band.y, width: width, title: "Details", glyphs: state.glyphs)
            buffer.write("nothing selected", x: 1, y: band.y + 1, style: Theme.label)
            return
        }
        buffer.rule(
            y: band.y, width: width, title: "Details #\(operation.id) \(operation.name)",
            glyphs: state.glyphs)
        var y = band.y + 1
        let end = band.y + band.height
        for (label, spans) in sections(operation) {
            let lines = wrap(spans, separator: Span(" "), width: width - Self.labelWidth - 1)
            for (offset, line) in lines.enumerated() where y < end {
                if offset == 0 { buffer.write(label, x: 1, y: y, style: Theme.label) }
                buffer.write(
                    line, x: Self.labelWidth + 1, y: y, maxWidth: width - Self.labelWidth - 1)
                y += 1
            }
        }
    }

    /// The pane's labelled sections, in display order.
    private func sections(_ operation: OperationSnapshot) -> [(String, [Span])] {
        let snapshot = state.snapshot
        var result: [(String, [Span])] = []
        var summary = [
            Span(operation.stateLabel, Theme.state(operation.lifecycle, operation.outcome)),
            Span(operation.kind.rawValue, Theme.label),
        ]
        if operation.totalBytes > 0 {
            summary.append(Span(Format.percent(operation.fraction)))
            summary.append(Span(Format.amount(operation.completedBytes, of: operation.totalBytes, operation.unit)))
        }
        if operation.lifecycle == .executing, operation.bytesPerSecond > 0 {
            summary.append(
                Span(Format.rate(operation.bytesPerSecond, operation.unit), CellStyle(foreground: .cyan)))
        }
        summary.append(Span("retries \(operation.retries)", Theme.label))
        result.append(("state", summary))

        var history: [Span] = []
        for (offset, change) in operation.history.enumerated() {
            let arrow = offset == 0 ? "" : state.glyphs.arrow + " "
            history.append(Span(arrow + Format.timestamp(change.time), Theme.label))
            history.append(
                Span(
                    label(change.lifecycle, change.outcome),
                    Theme.state(change.lifecycle, change.outcome)))
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
            var spans = [Span(outcome.rawValue, Theme.state(.finished, outcome))]
            if let message = operation.message { spans.append(Span(message)) }
            result.append(("outcome", spans))
        }
        for (offset, entry) in operation.retryLog.enumerated() {
            result.append((offset == 0 ? "retry log" : "", [Span(entry, Theme.warning)]))
        }
        return result
    }

    /// "#3 name done, #7 name running", or "none"; dependencies looked up in O(log n) each.
    private func related(_ ids: [Int]) -> [Span] {
        guard !ids.isEmpty else { return [Span("none", Theme.label)] }
        var spans: [Span] = []
        for (offset, id) in ids.enumerated() {
            let comma = offset == ids.count - 1 ? "" : ","
            if let other = state.snapshot.operation(id: id) {
                spans.append(Span("#\(id) \(other.name)"))
                spans.append(
                    Span(other.stateLabel + comma, Theme.state(other.lifecycle, other.outcome)))
            } else {
                spans.append(Span("#\(id) (evicted)\(comma)", Theme.label))
            }
        }
        return spans
    }

    private func label(_ lifecycle: Lifecycle, _ outcome: Outcome?) -> String {
        OperationSnapshot(id: 0, name: "", lifecycle: lifecycle, outcome: outcome).stateLabel
    }
}

/// The event log pane: the last entries of the snapshot's log, time-stamped, newest at bottom.
struct LogView {
    let state: DashboardState

    /// Draws a titled rule, then the newest entries that fit, oldest first.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        let log = state.snapshot.log
        buffer.rule(y: band.y, width: buffer.width, title: "Events", glyphs: state.glyphs)
        let capacity = band.height - 1
        let shown = log.suffix(capacity)
        for (offset, entry) in shown.enumerated() {
            var spans = [
                Span(Format.fit(Format.timestamp(entry.time), 9, right: true), Theme.label)
            ]
            spans.append(Span(" "))
            if let id = entry.operationID { spans.append(Span("#\(id) ", Theme.title)) }
            spans.append(Span(entry.text, style(entry.kind)))
            buffer.write(spans, x: 0, y: band.y + 1 + offset, maxWidth: buffer.width)
        }
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
