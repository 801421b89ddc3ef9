/// What a key asks of the fleet list.
package enum FleetIntent: Sendable, Equatable {
    case moveUp, moveDown, first, last, open, editFilter, clearFilter, repaint, help, quit
}

/// One row of the fleet list's key table: its keys, their label and what they do.
package struct FleetKeyBinding: Sendable {
    let keys: [Key: FleetIntent]
    let label: KeyLabel
    package let help: String
    /// Shown in the footer.
    let hint: String?

    /// The label in ASCII, as the README's table writes it.
    package var asciiLabel: String { label.ascii }
    /// Every key it binds.
    package var boundKeys: [Key] { Array(keys.keys) }
}

/// The fleet list's keys: the reducer dispatches through this table, the footer shows its
/// hints, and a test holds the README's fleet key table to it.
package enum FleetKeys {
    package static let table: [FleetKeyBinding] = [
        FleetKeyBinding(
            keys: [.up: .moveUp, .character("k"): .moveUp, .down: .moveDown, .character("j"): .moveDown],
            label: KeyLabel("↑/↓ j/k", ascii: "Up/Down j/k"), help: "move the selection", hint: "move"),
        FleetKeyBinding(
            keys: [.home: .first, .end: .last], label: KeyLabel("Home/End"), help: "first / last app", hint: nil),
        FleetKeyBinding(
            keys: [.enter: .open], label: KeyLabel("Enter"),
            help: "open the selected app's dashboard (Esc there, with nothing left to close, comes back)",
            hint: "open"),
        FleetKeyBinding(
            keys: [.character("/"): .editFilter], label: KeyLabel("/"),
            help:
                "filter by app/queue, host, pid, `departed`, `control` or `read-only`; Enter keeps, Esc undoes the edit",
            hint: "filter"),
        FleetKeyBinding(
            keys: [.escape: .clearFilter], label: KeyLabel("Esc"), help: "clear the filter; close this help",
            hint: nil),
        FleetKeyBinding(
            keys: [.control("l"): .repaint], label: KeyLabel("Ctrl-L"), help: "repaint the screen", hint: nil),
        FleetKeyBinding(keys: [.character("?"): .help], label: KeyLabel("?"), help: "this help", hint: "help"),
        FleetKeyBinding(
            keys: [.character("q"): .quit, .character("Q"): .quit], label: KeyLabel("q  Q"),
            help: "quit (in a dashboard opened from here, q comes back to this list and Q quits)", hint: "quit"),
    ]

    private static let intents: [Key: FleetIntent] = table.reduce(into: [:]) { all, binding in
        all.merge(binding.keys) { first, _ in first }
    }

    /// The intent `key` is bound to, or nil.
    static func intent(for key: Key) -> FleetIntent? { intents[key] }
}

/// Applies `action` to the fleet list; returns what the loop must do.
package func reduceFleet(_ state: inout FleetListState, _ action: FleetAction) -> [FleetCommand] {
    switch action {
    case .rows(let rows):
        state.rows = rows
        if state.selectedID == nil || !state.shownRows.contains(where: { $0.id == state.selectedID }) {
            state.selectedID = state.selectedRow?.id
        }
    case .resize(let width, let height):
        state.width = max(0, width)
        state.height = max(0, height)
    case .notice(let text):
        state.message = text
    case .key(let key):
        state.message = nil
        if state.isEditingFilter { return editFilter(&state, key) }
        guard let intent = FleetKeys.intent(for: key) else { return [] }
        if state.showHelp { return helpKey(intent, &state) }
        return perform(intent, &state)
    }
    return []
}

private func editFilter(_ state: inout FleetListState, _ key: Key) -> [FleetCommand] {
    switch edit(&state.filter, with: key) {
    case .editing: break
    case .done: state.isEditingFilter = false
    case .undone:
        state.filter = state.filterBeforeEdit
        state.isEditingFilter = false
    case .notText:
        guard let intent = FleetKeys.intent(for: key), [.moveUp, .moveDown, .first, .last].contains(intent) else {
            return []
        }
        return perform(intent, &state)
    }
    state.selectedID = state.selectedRow?.id
    return []
}

/// A key while the help is shown: `?` and Esc close it, the moves scroll it, `q` quits.
private func helpKey(_ intent: FleetIntent, _ state: inout FleetListState) -> [FleetCommand] {
    let lines = FleetListView.help(state).lines(terminalWidth: state.width).count
    let last = max(0, lines - HelpOverlay.visibleLines(height: state.height))
    switch intent {
    case .help, .clearFilter: state.showHelp = false
    case .moveUp: state.helpScroll = max(0, min(last, state.helpScroll - 1))
    case .moveDown: state.helpScroll = max(0, min(last, state.helpScroll + 1))
    case .first: state.helpScroll = 0
    case .last: state.helpScroll = last
    case .repaint: return [.repaint]
    case .quit: return [.quit]
    case .open, .editFilter: break
    }
    return []
}

private func perform(_ intent: FleetIntent, _ state: inout FleetListState) -> [FleetCommand] {
    let rows = state.shownRows
    func select(_ index: Int) {
        guard !rows.isEmpty else { return }
        state.selectedID = rows[max(0, min(rows.count - 1, index))].id
    }
    switch intent {
    case .moveUp: select(state.selectedIndex - 1)
    case .moveDown: select(state.selectedIndex + 1)
    case .first: select(0)
    case .last: select(rows.count - 1)
    case .open:
        guard let row = state.selectedRow else {
            state.message = state.rows.isEmpty ? "no published queue" : "no app matches the filter"
            return []
        }
        guard !row.departed else {
            state.message = "\(row.label) (pid \(row.pid)) went away"
            return []
        }
        if let note = row.note {
            state.message = "\(row.host): \(note)"
            return []
        }
        return [.open(row.id)]
    case .editFilter:
        state.filterBeforeEdit = state.filter
        state.isEditingFilter = true
    case .clearFilter:
        state.filter = ""
        state.selectedID = state.selectedRow?.id
    case .help:
        state.showHelp = true
        state.helpScroll = 0
    case .repaint: return [.repaint]
    case .quit: return [.quit]
    }
    return []
}
