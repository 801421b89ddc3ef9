import OpsMonitor

/// The three header lines: queue state and limits, counts by state, overall progress.
struct HeaderView {
    let state: DashboardState

    /// Draws the header into rows `y`, `y + 1`, `y + 2`.
    func render(into buffer: inout CellBuffer, y: Int) {
        let width = buffer.width
        let snapshot = state.snapshot
        buffer.write(titleLine(), x: 0, y: y, maxWidth: width)
        let elapsed = [Span("elapsed ", Theme.label), Span(Format.duration(snapshot.time), Theme.live)]
        let elapsedWidth = elapsed.reduce(0) { $0 + $1.text.count }
        buffer.write(elapsed, x: width - elapsedWidth, y: y, maxWidth: elapsedWidth)
        let counts = countsLine(short: false)
        let fits = counts.reduce(0) { $0 + $1.text.count } <= width
        buffer.write(fits ? counts : countsLine(short: true), x: 0, y: y + 1, maxWidth: width)
        renderProgress(into: &buffer, y: y + 2)
    }

    /// "opsdash │ RUNNING │ executing 3/4 │ sort id │ filter dl".
    private func titleLine() -> [Span] {
        let snapshot = state.snapshot
        let separator = Span(" \(state.glyphs.vertical) ", Theme.border)
        var spans = [Span("opsdash", Theme.title), separator]
        if let source = state.source {
            spans.append(Span(source.label + " ", Theme.title))
            spans.append(Span(source.detail, Theme.link(source.link)))
            spans.append(separator)
        }
        spans.append(
            snapshot.isSuspended ? Span(" PAUSED ", Theme.paused) : Span(" RUNNING ", Theme.running)
        )
        spans.append(separator)
        let limit = state.effectiveConcurrency
        let limitText = limit < 1 ? (state.glyphs == .unicode ? "∞" : "max") : "\(limit)"
        spans.append(Span("executing ", Theme.label))
        spans.append(Span("\(snapshot.counts.executing)/", Theme.title))
        let limitStyle =
            state.pendingConcurrency == nil
            ? Theme.title : CellStyle(foreground: .yellow, bold: true)
        spans.append(Span(limitText, limitStyle))
        spans.append(separator)
        spans.append(Span("sort ", Theme.label))
        spans.append(Span(state.sort.rawValue, Theme.title))
        if !state.filter.isEmpty || state.isEditingFilter {
            spans.append(separator)
            spans.append(Span("filter ", Theme.label))
            spans.append(Span(state.filter, CellStyle(foreground: .yellow, bold: true)))
        }
        if state.showDependencies {
            spans.append(separator)
            spans.append(Span("dependency tree", Theme.title))
        }
        return spans
    }

    /// "waiting 3  ready 2  executing 3  succeeded 10  failed 1  cancelled 0  total 19".
    ///
    /// With `short`, abbreviated labels for narrow terminals: "wait 5 rdy 1 run 3 ok 1 …".
    private func countsLine(short: Bool) -> [Span] {
        let counts = state.snapshot.counts
        let items: [(String, String, Int, CellStyle)] = [
            ("waiting", "wait", counts.waiting, Theme.state(.waiting, nil)),
            ("ready", "rdy", counts.ready, Theme.state(.ready, nil)),
            ("executing", "run", counts.executing, Theme.state(.executing, nil)),
            ("succeeded", "ok", counts.succeeded, Theme.state(.finished, .succeeded)),
            ("failed", "fail", counts.failed, Theme.state(.finished, .failed)),
            ("cancelled", "cxl", counts.cancelled, Theme.state(.finished, .cancelled)),
        ]
        let gap = short ? " " : "  "
        var spans: [Span] = []
        for (long, abbreviation, count, style) in items {
            if !spans.isEmpty { spans.append(Span(gap)) }
            spans.append(Span((short ? abbreviation : long) + " ", Theme.label))
            spans.append(Span("\(count)", count == 0 ? .plain : style))
        }
        spans.append(Span(gap + "total ", Theme.label))
        spans.append(Span("\(counts.total)", Theme.title))
        if state.snapshot.evictedCount > 0 {
            spans.append(Span(gap + (short ? "evict " : "evicted "), Theme.label))
            spans.append(Span("\(state.snapshot.evictedCount)"))
        }
        return spans
    }

    /// "[bar] 45%  12.3/45.6 MB  1.2 MB/s  ETA 0:30", the bar taking the spare width.
    private func renderProgress(into buffer: inout CellBuffer, y: Int) {
        let snapshot = state.snapshot
        let fraction: Double
        if snapshot.totalBytes > 0 {
            fraction = Double(snapshot.completedBytes) / Double(snapshot.totalBytes)
        } else if snapshot.counts.total > 0 {
            fraction = Double(snapshot.counts.finished) / Double(snapshot.counts.total)
        } else {
            fraction = 0
        }
        var spans = [Span(" " + Format.fit(Format.percent(fraction), 4, right: true), Theme.live)]
        if snapshot.totalBytes > 0 {
            spans.append(Span("  "))
            spans.append(Span(Format.bytes(snapshot.completedBytes, of: snapshot.totalBytes)))
        }
        let rate = Format.rate(snapshot.bytesPerSecond)
        spans.append(Span("  "))
        spans.append(Span(rate.isEmpty ? "0 B/s" : rate, CellStyle(foreground: .cyan)))
        let eta = Format.eta(
            remaining: snapshot.totalBytes - snapshot.completedBytes,
            bytesPerSecond: snapshot.bytesPerSecond)
        if !eta.isEmpty {
            spans.append(Span("  ETA ", Theme.label))
            spans.append(Span(eta))
        }
        let textWidth = spans.reduce(0) { $0 + $1.text.count }
        let label = "progress "
        let barWidth = buffer.width - textWidth - label.count
        buffer.write(label, x: 0, y: y, style: Theme.label)
        // The overall bar moves on almost every busy frame: drawn in the default colour, moving
        // it needs no colour switch in and out (16 bytes a frame on xterm).
        ProgressBar(fraction: fraction, style: Theme.live)
            .render(into: &buffer, x: label.count, y: y, width: barWidth, glyphs: state.glyphs)
        buffer.write(spans, x: label.count + max(0, barWidth), y: y, maxWidth: textWidth)
    }
}
