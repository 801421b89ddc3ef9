/// The footer line: the main keys, or the answer to the last key, or the filter being typed, or
/// a y/n question; with the selected row's position on the right.
///
/// A widget in the ratatui manner: `init(_:)` takes from the state what the footer shows, and
/// `render(into:area:)` draws only that, only inside `area`.
struct FooterView: Sendable, Equatable {
    /// What the left of the line shows.
    enum Content: Sendable, Equatable {
        /// "Cancel all N unfinished operations? (y/n)" across the whole line.
        case cancelAllPrompt(count: Int)
        /// Another y/n question ("Cancel #12 and its 5 dependents? (y/n)") across the whole line.
        case prompt(String)
        /// The answer to the last key.
        case message(String)
        /// The filter being typed.
        case filterEdit(String)
        /// The search being typed.
        case searchEdit(String)
        /// Key and word pairs, as many whole pairs as fit.
        case hints([Hint])
    }

    /// One key hint: "q quit".
    struct Hint: Sendable, Equatable {
        let key: String
        let word: String
    }

    let content: Content
    /// "12/345" for the selected row, or "0/0".
    let position: String

    init(content: Content, position: String) {
        self.content = content
        self.position = position
    }

    /// What the footer shows for `state`; with a `cache`, hints made for an equal `HintsKey`
    /// before are used again rather than made anew each frame.
    init(_ state: borrowing DashboardState, cache: RenderCache? = nil) {
        if case .cancelAll? = state.prompt {
            // The count is the snapshot's, so it goes down while the question is open.
            content = .cancelAllPrompt(count: unfinishedCount(state.snapshot))
        } else if let prompt = state.prompt {
            content = .prompt(prompt.question)
        } else if let message = state.message {
            content = .message(message)
        } else if state.isEditingFilter {
            content = .filterEdit(state.filter)
        } else if state.isEditingSearch {
            content = .searchEdit(state.search)
        } else {
            let key = HintsKey(state)
            content = .hints(cache?.footerHints(key) ?? Self.hints(for: key))
        }
        let count = state.rows.count(in: state.snapshot)
        position = count == 0 ? "0/0" : "\(state.selectedIndex + 1)/\(count)"
    }

    /// What the hints are made from (`hints(for:)` reads nothing else): equal keys make equal
    /// hints.
    struct HintsKey: Equatable {
        /// A replay's keys rather than the dashboard's.
        var isReplay: Bool
        /// Without the keys that control the queue.
        var isReadOnly: Bool
        var glyphs: GlyphSet
        /// What the words follow.
        var context: FooterHint.Context

        /// The key of `state`'s hints.
        init(_ state: borrowing DashboardState) {
            isReplay = state.source?.isReplay == true
            isReadOnly = state.source?.isReadOnly == true
            glyphs = state.glyphs
            context = FooterHint.Context(state)
        }
    }

    /// The hints made from `key`, in rank order.
    static func hints(for key: HintsKey) -> [Hint] {
        if key.isReplay { return ReplayKeyHints.footer(glyphs: key.glyphs).map { Hint(key: $0.0, word: $0.1) } }
        let hints = key.isReadOnly ? KeyBinding.readOnlyHints : KeyBinding.hints
        return hints.map { Hint(key: $0.label.text(key.glyphs), word: $0.word(key.context)) }
    }

    /// Draws the footer on the first row of `area`.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    /// Draws the footer on the first row of `area`; with a `cache`, copies the left part drawn
    /// last when it showed the same in as many columns, and draws the position over it (it
    /// moves with every operation added, the hints seldom).
    func render(into buffer: inout CellBuffer, area: Rect, cache: RenderCache?) {
        guard let cache else { return render(into: &buffer, area: area) }
        buffer.draw(in: area) { canvas in
            let key = LeftKey(content: content, width: canvas.width, leftWidth: leftWidth(canvas.width))
            if !cache.drawFooterLeft(key: key, y: 0, into: &canvas) {
                renderLeft(into: &canvas)
                cache.storeFooterLeft(key: key, y: 0, from: canvas)
            }
            let shown = showsPosition ? position : ""
            if showsPosition { renderPosition(into: &canvas) }
            cache.placeFooter(position: shown, y: 0, canvas: canvas)
        }
    }

    /// What the footer's left part (all of it but the position) is drawn from.
    struct LeftKey: Equatable {
        var content: Content
        var width: Int
        var leftWidth: Int
    }

    /// Whether the position shows (a question takes the whole line).
    private var showsPosition: Bool {
        switch content {
        case .cancelAllPrompt, .prompt: false
        case .message, .filterEdit, .searchEdit, .hints: true
        }
    }

    /// Columns left of the position.
    private func leftWidth(_ width: Int) -> Int { max(0, width - position.count - 1) }

    private func render(into canvas: inout Canvas) {
        renderLeft(into: &canvas)
        if showsPosition { renderPosition(into: &canvas) }
    }

    /// The question across the whole line, or the hints, message or line being typed left of
    /// the position.
    private func renderLeft(into canvas: inout Canvas) {
        let width = canvas.width
        let leftWidth = leftWidth(width)
        switch content {
        case .cancelAllPrompt(let count):
            let question = Prompt.cancelAll(count: count).question
            canvas.write(" \(question) ", x: 0, y: 0, style: Theme.prompt, maxWidth: width)
        case .prompt(let question):
            canvas.write(" \(question) ", x: 0, y: 0, style: Theme.prompt, maxWidth: width)
        case .message(let message):
            canvas.write(message, x: 0, y: 0, style: Theme.warning, maxWidth: leftWidth)
        case .filterEdit(let filter):
            canvas.write(Self.editSpans("filter ", filter, "Enter keeps"), x: 0, y: 0, maxWidth: leftWidth)
        case .searchEdit(let search):
            canvas.write(Self.editSpans("/", search, "Enter finds"), x: 0, y: 0, maxWidth: leftWidth)
        case .hints(let hints):
            canvas.write(Self.spans(hints, fitting: leftWidth), x: 0, y: 0, maxWidth: leftWidth)
        }
    }

    /// "12/345" at the right.
    private func renderPosition(into canvas: inout Canvas) {
        let width = canvas.width
        canvas.write(position, x: width - position.count, y: 0, style: Theme.label, maxWidth: width)
    }

    /// A line being typed after its key, with a cursor and what Enter and Esc do.
    static func editSpans(_ key: String, _ text: String, _ enter: String) -> [Span] {
        [
            Span(key, Theme.footerKey), Span(text, CellStyle(bold: true)),
            Span("_", CellStyle(bold: true, underline: true)),
            Span("  \(enter), Esc undoes", Theme.label),
        ]
    }

    /// The hints that fit in `width` columns, whole pairs only.
    static func spans(_ hints: [Hint], fitting width: Int) -> [Span] {
        var spans: [Span] = []
        var used = 0
        for hint in hints {
            let needed = (spans.isEmpty ? 0 : 1) + hint.key.count + 1 + hint.word.count
            guard used + needed <= width else { break }
            if !spans.isEmpty { spans.append(Span(" ")) }
            spans.append(Span(hint.key, Theme.footerKey))
            spans.append(Span(" " + hint.word))
            used += needed
        }
        return spans
    }
}
