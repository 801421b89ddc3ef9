import OpsMonitor

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
