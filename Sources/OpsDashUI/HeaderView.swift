import OpsMonitor

/// The three header lines: queue state and limits, counts by state, overall progress.
///
/// A widget: `init(_:)` takes from the state what the header shows, and
/// `render(into:area:)` draws it on the first three rows of `area`, only inside `area`.
struct HeaderView: Sendable, Equatable {
    /// Unicode or ASCII drawing.
    var glyphs: GlyphSet = .unicode
    /// Where the picture comes from (nil for a local run).
    var source: SourceStatus?
    /// A local run's scenario name.
    var title: String?
    /// The queue's counts by state.
    var counts = StateCounts()
    /// Operations dropped from the picture to bound memory.
    var evictedCount = 0
    /// Whether every operation has finished.
    var isDrained = false
    /// Whether the picture is a running app's (attached, not a replay): its drained queue is idle,
    /// not done, and its clock keeps going, since the app may add work at any time.
    var isLiveApp = false
    /// Whether the queue is paused.
    var isSuspended = false
    /// The concurrency limit shown (below 1: none).
    var concurrency = 0
    /// Whether that limit was asked for and not yet applied.
    var isConcurrencyPending = false
    /// The table's order.
    var sort = SortOrder.id
    /// The filter, when one is set or being typed.
    var filter: String?
    /// Whether only failed operations are listed (`!`).
    var failedOnly = false
    /// Whether the dependency tree replaces the table.
    var showDependencies = false
    /// Time since the start, stopped when the last operation finished.
    var elapsed = Duration.zero
    /// How many times faster than real time the clock runs.
    var speed = 1.0
    /// Bytes done and in total, the current and the whole run's average rate.
    var completedBytes: Int64 = 0
    var totalBytes: Int64 = 0
    var bytesPerSecond = 0.0
    var averageBytesPerSecond = 0.0
    /// The history's last `sparklineSeconds` seconds (oldest first; none before the first
    /// change): operations finished and failed in each, and running at its end.
    var recentFinished: [Int64] = []
    var recentFailed: [Int64] = []
    var recentRunning: [Int64] = []

    /// Seconds a header sparkline shows at most (one column a second).
    static let sparklineSeconds = 30

    /// A header showing an empty, running queue.
    init() {}

    /// What the header shows for `state`.
    init(_ state: borrowing DashboardState) {
        let snapshot = state.snapshot
        glyphs = state.glyphs
        source = state.source
        title = state.source == nil ? state.title : nil
        counts = snapshot.counts
        evictedCount = snapshot.evictedCount
        isDrained = snapshot.isDrained
        isLiveApp = state.source.map { !$0.isReplay } ?? false
        isSuspended = snapshot.isSuspended
        concurrency = state.effectiveConcurrency
        isConcurrencyPending = state.pendingConcurrency != nil
        sort = state.sort
        filter = !state.filter.isEmpty || state.isEditingFilter ? state.filter : nil
        showDependencies = state.showDependencies
        failedOnly = state.failedOnly
        elapsed = isLiveApp ? snapshot.time : snapshot.drainedAt ?? snapshot.time
        speed = state.speed
        completedBytes = snapshot.completedBytes
        totalBytes = snapshot.totalBytes
        bytesPerSecond = snapshot.bytesPerSecond
        averageBytesPerSecond = snapshot.averageBytesPerSecond
        // The three series in one pass over the history, with no array of its seconds made,
        // each stored in place (not appended: a check of room and owner a value).
        let count = snapshot.history.secondsCount(endingAt: snapshot.time, count: Self.sparklineSeconds)
        guard count > 0 else { return }
        recentFinished = Array(repeating: 0, count: count)
        recentFailed = recentFinished
        recentRunning = recentFinished
        var filled = 0
        recentFinished.withUnsafeMutableBufferPointer { finished in
            recentFailed.withUnsafeMutableBufferPointer { failed in
                recentRunning.withUnsafeMutableBufferPointer { running in
                    snapshot.history.forEachSecond(endingAt: snapshot.time, count: Self.sparklineSeconds) { second in
                        guard filled < count else { return }
                        finished[filled] = second.value(.finished)
                        failed[filled] = second.value(.failed)
                        running[filled] = second.value(.running)
                        filled += 1
                    }
                }
            }
        }
        if filled < count {
            recentFinished.removeLast(count - filled)
            recentFailed.removeLast(count - filled)
            recentRunning.removeLast(count - filled)
        }
    }

    /// Draws the header into the first three rows of `area`; with a `cache`, a line whose
    /// inputs (`titleKey`, `countsKey`, `progressKey`) are those it was last drawn from is
    /// copied instead.
    func render(into buffer: inout CellBuffer, area: Rect, cache: RenderCache?) {
        buffer.draw(in: area) { canvas in
            guard let cache else {
                for line in 0..<3 { render(line: line, into: &canvas) }
                return
            }
            let width = canvas.width
            let title = titleKey(width: width)
            if !cache.drawHeaderLine(title, y: 0, into: &canvas) {
                renderTitle(into: &canvas)
                cache.storeHeaderLine(title, y: 0, from: canvas)
            }
            let counts = countsKey(width: width)
            if !cache.drawHeaderLine(counts, y: 1, into: &canvas) {
                renderCounts(into: &canvas)
                cache.storeHeaderLine(counts, y: 1, from: canvas)
            }
            let progress = progressKey(width: width)
            if !cache.drawHeaderLine(progress, y: 2, into: &canvas) {
                // Drawn from the layout its key holds (not laid out twice).
                renderProgress(progress.layout, into: &canvas, y: 2)
                cache.storeHeaderLine(progress, y: 2, from: canvas)
            }
        }
    }

    /// What each line is drawn from in `width` columns: equal keys draw equal lines. The
    /// counts and progress lines are keyed by what they show alone (the progress line by its
    /// figures, percentage and bar, not the bytes behind them), with no copy of the header.
    func titleKey(width: Int) -> TitleKey { TitleKey(inputs: titleInputs, width: width) }

    /// The counts line's key (see `titleKey(width:)`).
    func countsKey(width: Int) -> CountsKey {
        CountsKey(counts: counts, evicted: evictedCount, running: recentRunning, glyphs: glyphs, width: width)
    }

    /// The progress line's key (see `titleKey(width:)`).
    func progressKey(width: Int) -> ProgressKey {
        ProgressKey(
            layout: progressLayout(width: width), finished: recentFinished, failed: recentFailed, glyphs: glyphs,
            width: width)
    }

    /// The header with the fields the title line never reads at their defaults and the clock
    /// in whole seconds (what it shows).
    private var titleInputs: HeaderView {
        var view = self
        view.elapsed = .seconds(elapsed.components.seconds)
        // The title reads the running count, and the outcomes once drained.
        view.counts =
            isDrained
            ? StateCounts(succeeded: counts.succeeded, failed: counts.failed, cancelled: counts.cancelled)
            : StateCounts(executing: counts.executing)
        view.evictedCount = 0
        view.completedBytes = 0
        view.totalBytes = 0
        view.bytesPerSecond = 0
        view.averageBytesPerSecond = 0
        view.recentFinished = []
        view.recentFailed = []
        view.recentRunning = []
        return view
    }

    /// The title line's inputs: `titleInputs`.
    struct TitleKey: Equatable {
        var inputs: HeaderView
        var width: Int
    }

    /// The counts line's inputs, its running sparkline's included.
    struct CountsKey: Equatable {
        var counts: StateCounts
        var evicted: Int
        var running: [Int64]
        var glyphs: GlyphSet
        var width: Int
    }

    /// The progress line's inputs: its layout and the "done" sparkline's seconds.
    struct ProgressKey: Equatable {
        var layout: ProgressLayout
        var finished: [Int64]
        var failed: [Int64]
        var glyphs: GlyphSet
        var width: Int
    }

    private func render(line: Int, into canvas: inout Canvas) {
        switch line {
        case 0: renderTitle(into: &canvas)
        case 1: renderCounts(into: &canvas)
        default: renderProgress(progressLayout(width: canvas.width), into: &canvas, y: 2)
        }
    }

    /// "opsdash │ RUNNING │ … │ sort id", the clock at the right.
    private func renderTitle(into canvas: inout Canvas) {
        let width = canvas.width
        // The clock stops when the last operation finishes (a running app's keeps going). An
        // attached app's clock is the app's own (it may run faster than real time): "app time".
        var elapsed = [
            Span(isLiveApp ? "app time " : "elapsed ", Theme.label),
            Span(Format.duration(self.elapsed), Theme.live),
        ]
        let speed = Format.speed(speed, ascii: glyphs == .ascii)
        if !speed.isEmpty { elapsed.append(Span(" " + speed, Theme.label)) }
        let elapsedWidth = elapsed.reduce(0) { $0 + $1.width }
        // The title stops one column short of the clock rather than running into it.
        let titleWidth = elapsedWidth < width ? width - elapsedWidth - 1 : width
        canvas.write(fitted(titleSegments(width: titleWidth), width: titleWidth), x: 0, y: 0, maxWidth: titleWidth)
        canvas.write(elapsed, x: width - elapsedWidth, y: 0, maxWidth: elapsedWidth)
    }

    /// The counts by state and the running sparkline. The counts move with every finish: drawn
    /// as words and digits into the cells (`countsLine(short: false)` as spans would be built,
    /// measured and scanned again each time); the short form, for a narrow header, as spans.
    private func renderCounts(into canvas: inout Canvas) {
        let width = canvas.width
        let countsWidth = countsLineWidth
        guard countsWidth <= width else {
            canvas.write(countsLine(short: true), x: 0, y: 1, maxWidth: width)
            return
        }
        let x = writeCountsLine(into: &canvas, y: 1)
        writeRunningSparkline(into: &canvas, x: x, y: 1, room: width - countsWidth)
    }

    /// The labels of the counts line (not short), each with the space before its number:
    /// "waiting ", "ready ", …, "total "; two spaces go between a number and the next label.
    private static let countLabels = DisplayState.counted.map { $0.word + " " } + ["total "]
    private static let countLabelWidths = countLabels.map(DisplayWidth.of)
    private static let countGap = "  "
    /// The evicted count's label, after a gap.
    private static let evictedLabel = "evicted "

    /// Columns `countsLine(short: false)` takes.
    private var countsLineWidth: Int {
        var columns = 0
        for (index, displayState) in DisplayState.counted.enumerated() {
            columns += Self.countLabelWidths[index] + Digits.count(displayState.count(in: counts))
        }
        columns += Self.countLabelWidths[DisplayState.counted.count] + Digits.count(counts.total)
        // The gap and the label are printable ASCII: a column a byte, counted without breaking
        // them into characters.
        columns += Self.countGap.utf8.count * DisplayState.counted.count
        if evictedCount > 0 {
            columns += Self.countGap.utf8.count + Self.evictedLabel.utf8.count + Digits.count(evictedCount)
        }
        return columns
    }

    /// Draws `countsLine(short: false)` on row `y` from column 0; returns the column after it.
    private func writeCountsLine(into canvas: inout Canvas, y: Int) -> Int {
        canvas.writeScalars(x: 0, y: y) { line in
            for (index, displayState) in DisplayState.counted.enumerated() {
                let count = displayState.count(in: counts)
                if index > 0 { line.put(printableASCII: Self.countGap, style: .plain) }
                line.put(printableASCII: Self.countLabels[index], style: Theme.label)
                line.put(digits: count, style: count == 0 ? .plain : displayState.style)
            }
            // Before "total" and "evicted" the gap is in the label's style.
            line.put(printableASCII: Self.countGap, style: Theme.label)
            line.put(printableASCII: Self.countLabels[DisplayState.counted.count], style: Theme.label)
            line.put(digits: counts.total, style: Theme.title)
            if evictedCount > 0 {
                line.put(printableASCII: Self.countGap, style: Theme.label)
                line.put(printableASCII: Self.evictedLabel, style: Theme.label)
                line.put(digits: evictedCount, style: .plain)
            }
        }
    }

    /// "opsdash │ RUNNING │ running 3/4 │ sort id │ filter dl", or once every operation has
    /// finished "opsdash │ DONE │ 23 succeeded, 1 failed, 1 cancelled │ sort id" (IDLE for an
    /// attached app, which may add more work; DISCONNECTED or CONNECTING while it is not
    /// there). A replay's position and play state are kept whole in `width` columns: the
    /// recording's name before them is shortened first.
    private func titleSegments(width: Int) -> [[Span]] {
        var segments: [[Span]] = [[Span("opsdash", Theme.title)]]
        if let title, !title.isEmpty { segments.append([Span(title, Theme.title)]) }
        if let source {
            var label = source.label
            var detail = source.detail
            if let playback = source.playback {
                let shown = playback.text(glyphs: glyphs)
                let room = width - DisplayWidth.of("opsdash") - 3 - DisplayWidth.of(shown) - 1
                if DisplayWidth.of(label) > room { label = Self.shortened(label, to: room, glyphs: glyphs) }
                detail = detail.isEmpty ? shown : shown + " " + detail
            }
            segments.append([
                Span(label.isEmpty ? "" : label + " ", Theme.title), Span(detail, Theme.link(source.link)),
            ])
        }
        if let source, source.playback == nil, source.link != .connected {
            // The last picture of an app that is not there: not RUNNING, whatever it was. Kept
            // whole like the run state, so a narrow header still says so.
            let word = source.link == .disconnected ? " DISCONNECTED " : " CONNECTING "
            segments.append([Span(word, Theme.link(source.link))])
            segments.append(isDrained ? outcomeSpans() : limitSpans())
        } else if isDrained {
            segments.append([Span(isLiveApp ? " IDLE " : " DONE ", Theme.done)])
            segments.append(outcomeSpans())
        } else {
            segments.append([isSuspended ? Span(" PAUSED ", Theme.paused) : Span(" RUNNING ", Theme.running)])
            segments.append(limitSpans())
        }
        segments.append([Span("sort ", Theme.label), Span(sort.rawValue, Theme.title)])
        if let filter {
            segments.append([Span("filter ", Theme.label), Span(filter, CellStyle(foreground: .yellow, bold: true))])
        }
        if failedOnly {
            segments.append([Span("failed only", DisplayState.failed.style)])
        }
        if showDependencies {
            segments.append([Span("dependency tree", Theme.title)])
        }
        return segments
    }

    /// `segments` joined by separators in `width` columns: the segments after the first that
    /// does not fit are left out, and that one is cut with an ellipsis unless it is one of the
    /// last ones (sort, filter, failed only, tree), which are left out whole rather than shown cut. An
    /// attached app's label and link state give way to the run state, so that stays in view.
    private func fitted(_ segments: [[Span]], width: Int) -> [Span] {
        let separator = Span(" \(glyphs.vertical) ", Theme.border)
        let optionalFrom =
            segments.count - 1 - (filter == nil ? 0 : 1) - (failedOnly ? 1 : 0) - (showDependencies ? 1 : 0)
        var segments = segments
        if source != nil, segments.count > 2, source?.playback == nil {
            // What must show whole: "opsdash", the source and the run state (RUNNING, IDLE…).
            let mandatory = segments[..<min(3, optionalFrom)].enumerated().reduce(0) { total, item in
                total + (item.offset == 0 ? 0 : separator.width) + item.element.reduce(0) { $0 + $1.width }
            }
            let sourceWidth = segments[1].reduce(0) { $0 + $1.width }
            let room = sourceWidth - max(0, mandatory - width)
            if room < sourceWidth { segments[1] = narrowed(segments[1], to: room) }
        }
        var spans: [Span] = []
        var used = 0
        for (index, segment) in segments.enumerated() where !segment.isEmpty {
            let lead = index == 0 ? [] : [separator]
            let needed = (lead + segment).reduce(0) { $0 + $1.width }
            if used + needed <= width {
                spans += lead + segment
                used += needed
                continue
            }
            // Cut with an ellipsis, if enough of it shows to read (never a separator alone).
            guard index < optionalFrom, width - used - separator.width >= 4 else { break }
            spans += lead + cut(segment, to: width - used - separator.width)
            break
        }
        return spans
    }

    /// The source segment (label, link state) in `room` columns, under 8 nothing. With a
    /// `brief` link state (a countdown, "read-only"), that is shown whole after the label cut to
    /// what is left; otherwise the link state is cut first, then the label.
    private func narrowed(_ segment: [Span], to room: Int) -> [Span] {
        guard room >= 8 else { return [] }
        guard let brief = source?.brief, segment.count == 2 else { return cut(segment, to: room) }
        let link = Span(brief, segment[1].style)
        let label = segment[0].text.hasSuffix(" ") ? String(segment[0].text.dropLast()) : segment[0].text
        let labelRoom = room - link.width - 1
        if label.isEmpty || labelRoom < 6 { return cut([link], to: room) }
        let shown =
            DisplayWidth.of(label) <= labelRoom ? label : Format.fit(label, labelRoom, ellipsis: glyphs.ellipsis)
        return [Span(shown + " ", segment[0].style), link]
    }

    /// `segment` in `room` columns: its spans while they fit, the first that does not cut with
    /// an ellipsis, nothing after it.
    private func cut(_ segment: [Span], to room: Int) -> [Span] {
        var result: [Span] = []
        var left = room
        for (index, part) in segment.enumerated() where left > 0 {
            let more = index < segment.count - 1
            if part.width < left || (part.width == left && !more) {
                result.append(part)
                left -= part.width
            } else {
                // A part that fills the room while more follow ends with the ellipsis too
                // ("running…", never a bare "running" that hides its counts).
                let text = part.width == left ? part.text + String(glyphs.ellipsis) : part.text
                result.append(Span(Format.fit(text, left, ellipsis: glyphs.ellipsis), part.style))
                left = 0
            }
        }
        return result
    }

    /// A source's label in `room` columns: cut with an ellipsis, only its first word when that
    /// is too short to read, or nothing.
    private static func shortened(_ label: String, to room: Int, glyphs: GlyphSet) -> String {
        if room >= 10 { return Format.fit(label, room, ellipsis: glyphs.ellipsis) }
        let word = label.prefix { $0 != " " }
        return DisplayWidth.of(String(word)) <= room ? String(word) : ""
    }

    /// "23 succeeded, 1 failed, 1 cancelled".
    private func outcomeSpans() -> [Span] {
        var spans: [Span] = []
        for outcome in [DisplayState.succeeded, .failed, .cancelled] {
            let count = outcome.count(in: counts)
            if !spans.isEmpty { spans.append(Span(", ")) }
            spans.append(Span("\(count) ", count == 0 ? .plain : Theme.title))
            spans.append(Span(outcome.word, count == 0 ? Theme.label : outcome.style))
        }
        return spans
    }

    /// "running 3/4": operations running and the concurrency limit (pending in yellow).
    private func limitSpans() -> [Span] {
        var spans: [Span] = []
        let limit = concurrency
        let limitText = limit < 1 ? (glyphs == .unicode ? "∞" : "max") : "\(limit)"
        spans.append(Span(DisplayState.running.word + " ", Theme.label))
        spans.append(Span("\(counts.executing)/", Theme.title))
        let limitStyle =
            !isConcurrencyPending
            ? Theme.title : CellStyle(foreground: .yellow, bold: true)
        spans.append(Span(limitText, limitStyle))
        return spans
    }

    /// "waiting 3  ready 2  running 3  succeeded 10  failed 1  cancelled 0  total 19".
    ///
    /// With `short`, abbreviated labels for narrow terminals: "wait 5 rdy 1 run 3 ok 1 …".
    private func countsLine(short: Bool) -> [Span] {
        let gap = short ? " " : "  "
        var spans: [Span] = []
        for displayState in DisplayState.counted {
            let count = displayState.count(in: counts)
            if !spans.isEmpty { spans.append(Span(gap)) }
            spans.append(Span((short ? displayState.shortWord : displayState.word) + " ", Theme.label))
            spans.append(Span("\(count)", count == 0 ? .plain : displayState.style))
        }
        spans.append(Span(gap + "total ", Theme.label))
        spans.append(Span("\(counts.total)", Theme.title))
        if evictedCount > 0 {
            spans.append(Span(gap + (short ? "evict " : "evicted "), Theme.label))
            spans.append(Span("\(evictedCount)"))
        }
        return spans
    }

    /// What the progress line shows in `width` columns.
    struct ProgressLayout: Equatable {
        /// The figures after the percentage.
        var figures: ProgressFigures
        /// The whole percentage shown.
        var percent: Int
        /// The bar's columns (below 1: none) and its filled eighths of a column.
        var barWidth: Int
        var barEighths: Int
        /// Seconds the "done" sparkline shows (0: none).
        var sparklineCount: Int
    }

    /// Columns the progress line's label, `"progress "`, takes (printable ASCII: a column a byte).
    private static let progressLabel = "progress "
    /// Columns the percentage takes: a space and the number right-aligned in four.
    private static let percentWidth = 5
    /// The "done" sparkline's label (printable ASCII).
    private static let doneLabel = "  done "

    /// The progress line's layout in `width` columns: its figures and sparkline as wide as they
    /// are, the bar taking the rest.
    func progressLayout(width: Int) -> ProgressLayout {
        let fraction: Double
        if totalBytes > 0 {
            fraction = Double(completedBytes) / Double(totalBytes)
        } else if counts.total > 0 {
            fraction = Double(counts.finished) / Double(counts.total)
        } else {
            fraction = 0
        }
        let figures = ProgressFigures(
            completed: completedBytes, total: totalBytes, bytesPerSecond: bytesPerSecond,
            averageBytesPerSecond: averageBytesPerSecond, isDrained: isDrained)
        let labelWidth = Self.progressLabel.utf8.count
        let spansWidth = Self.percentWidth + figures.columns
        let room = width - spansWidth - labelWidth - Self.sparklineMinimumBar
        let count = min(recentFinished.count, room - Self.doneLabel.utf8.count)
        let sparklineCount = count >= 8 ? count : 0
        let textWidth = spansWidth + (sparklineCount > 0 ? Self.doneLabel.utf8.count + sparklineCount : 0)
        let barWidth = width - textWidth - labelWidth
        return ProgressLayout(
            figures: figures, percent: Format.wholePercent(fraction), barWidth: barWidth,
            barEighths: ProgressBar(fraction: fraction).filledEighths(width: barWidth), sparklineCount: sparklineCount)
    }

    /// "[bar] 45%  12.3/45.6 MB  1.2 MB/s  ETA 0:30  done ▁▂▅█▃", the bar taking the spare
    /// width: drawn as words and digits into the cells (the rate and the bar move on almost
    /// every busy frame).
    private func renderProgress(_ layout: ProgressLayout, into canvas: inout Canvas, y: Int) {
        let labelWidth = Self.progressLabel.utf8.count
        canvas.write(Self.progressLabel, x: 0, y: y, style: Theme.label)
        // The overall bar moves on almost every busy frame: drawn in the default colour, moving
        // it needs no colour switch in and out (16 bytes a frame on xterm).
        ProgressBar.render(
            eighths: layout.barEighths, style: Theme.live, into: &canvas, x: labelWidth, y: y, width: layout.barWidth,
            glyphs: glyphs)
        let textX = labelWidth + max(0, layout.barWidth)
        let digitsX = textX + Self.percentWidth - 1 - Digits.count(layout.percent)
        canvas.write("     ", x: textX, y: y, style: Theme.live, maxWidth: digitsX - textX)
        let percentEnd = canvas.writeDigits(layout.percent, x: digitsX, y: y, style: Theme.live)
        canvas.write("%", x: percentEnd, y: y, style: Theme.live)
        let x = layout.figures.write(into: &canvas, x: textX + Self.percentWidth, y: y)
        if layout.sparklineCount > 0 { writeFinishedSparkline(layout.sparklineCount, into: &canvas, x: x, y: y) }
    }

    /// Columns the overall bar keeps before a sparkline takes any of its width.
    static let sparklineMinimumBar = 24

    /// "  done ▁▂▅█▃": operations finished in each of the last `count` seconds (as many as the
    /// history holds at most), a second with a failure in red, drawn from (`x`, `y`) a glyph a
    /// cell (the newest second moves with each finish).
    private func writeFinishedSparkline(_ count: Int, into canvas: inout Canvas, x: Int, y: Int) {
        let first = recentFinished.count - count
        let failedFirst = recentFailed.count - count
        var peak: Int64 = 1
        for index in first..<recentFinished.count { peak = max(peak, recentFinished[index]) }
        canvas.writeScalars(x: x, y: y) { line in
            line.put(printableASCII: Self.doneLabel, style: Theme.label)
            for column in 0..<count {
                let failedIndex = failedFirst + column
                let failed = failedIndex >= 0 && failedIndex < recentFailed.count && recentFailed[failedIndex] > 0
                let glyph = Sparkline.glyph(recentFinished[first + column], peak: peak, glyphs: glyphs)
                line.put(glyph, style: failed ? DisplayState.failed.style : Theme.sparkline)
            }
        }
    }

    /// "  running ▃▃▅▅█": operations running at the end of each of the last seconds, in at most
    /// `room` columns (nothing under 8 columns of sparkline), drawn from (`x`, `y`).
    private func writeRunningSparkline(into canvas: inout Canvas, x: Int, y: Int, room: Int) {
        let label = Self.runningLabel
        let count = min(recentRunning.count, room - label.utf8.count)
        guard count >= 8 else { return }
        let first = recentRunning.count - count
        var peak: Int64 = 1
        for index in first..<recentRunning.count { peak = max(peak, recentRunning[index]) }
        canvas.writeScalars(x: x, y: y) { line in
            line.put(printableASCII: label, style: Theme.label)
            for column in 0..<count {
                let glyph = Sparkline.glyph(recentRunning[first + column], peak: peak, glyphs: glyphs)
                line.put(glyph, style: Theme.sparkline)
            }
        }
    }

    /// The running sparkline's label (printable ASCII).
    private static let runningLabel = "  \(DisplayState.running.word) "
}
