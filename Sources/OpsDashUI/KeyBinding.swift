/// One row of the dashboard's key table: its keys and the intent each asks for, the help's
/// label and text, and the footer's hint (nil: the footer leaves it out).
///
/// `KeyBinding.table` is the only list of keys: the reducer dispatches through it, the footer,
/// the help overlay and `opsdash --help` render it, and a test holds the README's key table to it.
struct KeyBinding: Sendable {
    let keys: [Key: KeyIntent]
    let label: KeyLabel
    let help: String
    let hint: FooterHint?

    init(_ keys: [Key: KeyIntent], _ label: KeyLabel, _ help: String, hint: FooterHint? = nil) {
        self.keys = keys
        self.label = label
        self.help = help
        self.hint = hint
    }

    /// Whether the keys act on the queue (cancel, pause, limit): a read-only attach can't.
    var controlsQueue: Bool { keys.values.contains(where: \.controlsQueue) }

    /// Every binding, in the order the help lists them.
    static let table: [KeyBinding] = [
        KeyBinding(
            [.up: .moveUp, .character("k"): .moveUp, .down: .moveDown, .character("j"): .moveDown],
            KeyLabel("↑/↓ j/k", ascii: "Up/Down j/k"),
            "move the selection (scroll this help, or a details pane after Tab)",
            hint: FooterHint(rank: 2, KeyLabel("↑↓", ascii: "Up/Dn"), "move")),
        KeyBinding([.pageUp: .pageUp, .pageDown: .pageDown], KeyLabel("PgUp/PgDn"), "move a page"),
        KeyBinding([.home: .first, .end: .last], KeyLabel("Home/End"), "first / last operation"),
        KeyBinding(
            [.character("c"): .cancelSelected], KeyLabel("c"), "cancel the selected operation",
            hint: FooterHint(rank: 3, KeyLabel("c"), "cancel")),
        KeyBinding(
            [.character("C"): .cancelAll], KeyLabel("C"), "cancel all unfinished (asks y/n)",
            hint: FooterHint(rank: 4, KeyLabel("C"), "all")),
        KeyBinding(
            [.character("X"): .cancelMatching], KeyLabel("X"),
            "cancel the unfinished operations the filter lists (asks y/n with the count)"),
        KeyBinding(
            [.character("x"): .cancelSubtree], KeyLabel("x"),
            "cancel the selected operation and every operation depending on it (asks y/n with the count)"),
        KeyBinding(
            [.character("p"): .togglePause, .character(" "): .togglePause], KeyLabel("p  space"),
            "pause / resume the queue",
            hint: FooterHint(rank: 5, KeyLabel("p")) { $0.isSuspended ? "resume" : "pause" }),
        KeyBinding(
            [
                .character("+"): .raiseLimit, .character("="): .raiseLimit,
                .character("-"): .lowerLimit, .character("_"): .lowerLimit,
            ],
            KeyLabel("+ =  - _"),
            "raise / lower concurrency (\(concurrencyRange.lowerBound)-\(concurrencyRange.upperBound))",
            hint: FooterHint(rank: 6, KeyLabel("+/-"), "limit")),
        KeyBinding(
            [.character("d"): .toggleDependencies], KeyLabel("d"),
            "dependency tree (the filter and sort apply to it too)",
            hint: FooterHint(rank: 7, KeyLabel("d"), "deps")),
        KeyBinding(
            [.character("h"): .toggleHistory], KeyLabel("h"),
            "history: every series per second, each with its scale"),
        KeyBinding(
            [.enter: .toggleDetails], KeyLabel("Enter"), "details of the selected operation",
            hint: FooterHint(rank: 8, KeyLabel("⏎", ascii: "Enter"), "details")),
        KeyBinding(
            [.character("a"): .toggleCommandLog], KeyLabel("a"),
            "event log: only queue changes and commands (who cancelled, paused, changed the limit), the last \(DashboardState.commandLogLimit) kept; a again: every event"
        ),
        KeyBinding(
            [.tab: .switchFocus], KeyLabel("Tab"),
            "with details open: arrows scroll the details (Tab again: the table)"),
        KeyBinding(
            [.character("/"): .editSearch], KeyLabel("/"),
            "search every field shown (name, #id, state, error, retry log, WHY): Enter selects the next match, Esc undoes the edit; rows stay",
            hint: FooterHint(rank: 9, KeyLabel("/"), "search")),
        KeyBinding(
            [.character("n"): .nextMatch, .character("N"): .previousMatch], KeyLabel("n/N"),
            "select the next / previous row the search matches (wraps round)"),
        KeyBinding(
            [.character("f"): .editFilter], KeyLabel("f"),
            "filter by name, #id or state: lists only the matches; edits the current filter, Enter keeps, Esc undoes the edit"
        ),
        KeyBinding(
            [.character("!"): .toggleFailedOnly], KeyLabel("!"), "list only the failed operations (! again: all)"),
        KeyBinding(
            [.character("s"): .nextSort], KeyLabel("s"), "sort: id, state, progress, rate",
            hint: FooterHint(rank: 10, KeyLabel("s")) { "sort:\($0.sort.rawValue)" }),
        KeyBinding([.escape: .close], KeyLabel("Esc"), "close pane / clear filter and failed-only"),
        KeyBinding([.control("l"): .repaint], KeyLabel("Ctrl-L"), "repaint the screen"),
        KeyBinding(
            [.character("?"): .help], KeyLabel("?"), "this help",
            hint: FooterHint(rank: 1, KeyLabel("?"), "help")),
        KeyBinding(
            [.character("q"): .quit], KeyLabel("q"), "quit",
            hint: FooterHint(rank: 0, KeyLabel("q")) { $0.openedFromFleet ? "back" : "quit" }),
    ]

    /// Every bound key and its intent.
    private static let intents: [Key: KeyIntent] = table.reduce(into: [:]) { all, binding in
        all.merge(binding.keys) { first, _ in first }
    }

    /// The intent `key` is bound to, or nil for an unbound key.
    static func intent(for key: Key) -> KeyIntent? { intents[key] }

    /// The footer's hints, in rank order.
    static let hints: [FooterHint] = table.compactMap(\.hint).sorted { $0.rank < $1.rank }

    /// The footer's hints for a source that can't be controlled: without the queue's controls.
    static let readOnlyHints: [FooterHint] = table.filter { !$0.controlsQueue }.compactMap(\.hint)
        .sorted { $0.rank < $1.rank }
}
