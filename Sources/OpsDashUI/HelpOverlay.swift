import OpsMonitor

/// The help overlay: a centred box explaining every key, the table's columns and glyphs and
/// the header's limit notation; it scrolls when the terminal is too small to show it whole.
///
/// A widget: it holds what it shows (the glyph set, whether the replay keys are listed, the
/// first line shown) and `render(into:area:)` draws the box filling `area`, the rectangle
/// `box(lines:in:)` centres on the screen (`Layout.help`).
struct HelpOverlay {
    let glyphs: GlyphSet
    /// Adds a "Replay" section with the replay keys.
    var replay = false
    /// Marks the keys that control the queue "read-only" (an app attached read-only).
    var readOnly = false
    /// The first help line shown.
    var scroll = 0
    /// The dashboard was opened from the fleet list: `q` goes back, `Q` quits.
    var openedFromFleet = false
    /// Sections shown instead of the dashboard's (the fleet list's help); nil: the dashboard's.
    var fixedSections: [(title: String, items: [(key: String, meaning: String)])]?

    /// The help for `state`'s source, from line `scroll`.
    init(_ state: borrowing DashboardState, scroll: Int = 0) {
        glyphs = state.glyphs
        replay = state.source?.isReplay == true
        readOnly = state.source?.isReadOnly == true
        openedFromFleet = state.openedFromFleet
        self.scroll = scroll
    }

    init(glyphs: GlyphSet, replay: Bool = false, readOnly: Bool = false, scroll: Int = 0) {
        self.glyphs = glyphs
        self.replay = replay
        self.readOnly = readOnly
        self.scroll = scroll
    }

    /// A help box listing `sections` (title, then key and meaning lines), from line `scroll`.
    init(glyphs: GlyphSet, sections: [(title: String, items: [(key: String, meaning: String)])], scroll: Int = 0) {
        self.glyphs = glyphs
        self.fixedSections = sections
        self.scroll = scroll
    }

    /// Width of the key (or term) column.
    static let keyWidth = 14
    /// The widest the box gets.
    static let maximumWidth = 84

    /// Every key and what it does, in the order the overlay lists them (`KeyBinding.table`).
    /// In a replay, keys that mean something else there (space, `p`, Home, End) are left out:
    /// the "Replay" section says what they do. Read-only, the keys that control the queue say
    /// so first.
    var entries: [(key: String, meaning: String)] {
        KeyBinding.table
            .filter { !replay || !$0.keys.keys.allSatisfy(ReplayKeyHints.keys.contains) }
            .flatMap { binding -> [(key: String, meaning: String)] in
                let key = binding.label.text(glyphs)
                if openedFromFleet, binding.keys.values.contains(.quit) { return Self.fleetQuitEntries }
                return [(key, readOnly && binding.controlsQueue ? Self.readOnlyMark + binding.help : binding.help)]
            }
    }

    /// What `q` and `Q` do in a dashboard opened from the fleet list.
    static let fleetQuitEntries: [(key: String, meaning: String)] = [
        ("q", "back to the fleet list (as Esc with nothing left to close)"), ("Q", "quit opsdash"),
    ]

    /// What starts the meaning of a key a read-only attach can't use.
    static let readOnlyMark = "(read-only: not allowed) "

    /// The table's columns and glyphs, explained.
    var columns: [(key: String, meaning: String)] {
        let kinds = [OperationKind.download, .upload, .process, .other]
            .map { String(glyphs.kind($0)) }.joined(separator: " ")
        return [
            (kinds, "kind: download, upload, process, other"),
            ("%  BYTES", "progress: done / total (work units for a process)"),
            ("RATE  ETA", "current speed; time left at that speed"),
            ("WAIT", "time from added to started, or waiting so far (wide terminals)"),
            ("TIME", "time running, or how long it ran once finished"),
            ("RT", "retries used so far"),
            ("AFTER", "the operations it depends on"),
            (
                "WHY",
                "why it isn't running: needs #3 (an unfinished dependency), slots busy (every slot taken), queue paused; or the error it ended with"
            ),
        ]
    }

    /// The header's notation, explained.
    var header: [(key: String, meaning: String)] {
        let unlimited = glyphs == .unicode ? "∞" : "max"
        return [
            ("running 3/4", "3 running now, at most 4 at once (the concurrency limit)"),
            (
                "running 3/1",
                "more running than the limit: it was lowered; running work finishes and nothing new starts until fewer than 1 run"
            ),
            ("yellow limit", "asked for with +/-, not yet applied by the queue"),
            (unlimited, "no concurrency limit"),
        ]
    }

    /// The box's width in a terminal `terminalWidth` columns wide.
    static func boxWidth(terminalWidth: Int) -> Int { min(terminalWidth, maximumWidth) }

    /// Help lines shown at once in a terminal `height` rows high.
    static func visibleLines(height: Int) -> Int { max(0, height - 3) }

    /// The help's lines, wrapped to fit a box in a terminal `terminalWidth` columns wide.
    func lines(terminalWidth: Int) -> [[Span]] {
        lines(boxWidth: Self.boxWidth(terminalWidth: terminalWidth))
    }

    /// The box for `lines` lines of help, centred in `screen`.
    static func box(lines: Int, in screen: Rect) -> Rect {
        let width = boxWidth(terminalWidth: screen.width)
        let height = min(screen.height, lines + 3)
        return Rect(
            x: screen.x + (screen.width - width) / 2, y: screen.y + (screen.height - height) / 2, width: width,
            height: height)
    }

    /// The help's lines, wrapped to fit a box `boxWidth` columns wide.
    func lines(boxWidth: Int) -> [[Span]] {
        let inner = max(1, boxWidth - 4)
        let meaningWidth = max(1, inner - Self.keyWidth)
        var result: [[Span]] = []
        let sections =
            fixedSections
            ?? [("Keys", entries)] + (replay ? [("Replay", ReplayKeyHints.entries(glyphs: glyphs))] : [])
            + [("Columns", columns), ("Header", header)]
        for (title, items) in sections {
            if !result.isEmpty { result.append([]) }
            result.append([Span(title, Theme.columnHeader)])
            for (key, meaning) in items {
                let style = readOnly && meaning.hasPrefix(Self.readOnlyMark) ? Theme.label : CellStyle.plain
                let words = meaning.split(separator: " ").map { Span(String($0), style) }
                let wrapped = wrap(words, separator: Span(" "), width: meaningWidth)
                for (offset, line) in wrapped.enumerated() {
                    let label = offset == 0 ? key : ""
                    result.append([Span(Format.fit(label, Self.keyWidth), Theme.footerKey)] + line)
                }
            }
        }
        return result
    }

    /// Draws the box filling `area`, its lines from `scroll`.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    private func render(into canvas: inout Canvas) {
        let (width, height) = (canvas.width, canvas.height)
        guard width >= 4, height >= 3 else { return }
        let lines = lines(boxWidth: width)
        canvas.box(x: 0, y: 0, width: width, height: height, glyphs: glyphs)
        canvas.write(" Help ", x: 2, y: 0, style: Theme.title, maxWidth: max(0, width - 4))
        let inner = max(0, width - 4)
        let visible = height - 3
        let first = min(max(0, scroll), max(0, lines.count - visible))
        for offset in 0..<visible where first + offset < lines.count {
            canvas.write(lines[first + offset], x: 2, y: 2 + offset, maxWidth: inner)
        }
        var closing = "? or Esc closes"
        if visible < lines.count {
            let arrows = glyphs == .unicode ? "↑↓" : "Up/Dn"
            closing = "\(first + 1)-\(first + visible) of \(lines.count), \(arrows) scroll; " + closing
        }
        let closingWidth = min(inner, closing.count)
        canvas.write(closing, x: width - 2 - closingWidth, y: 1, style: Theme.label, maxWidth: inner)
    }
}
