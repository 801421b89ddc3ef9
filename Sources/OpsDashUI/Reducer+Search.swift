/// What a key did to a line of text being typed (the filter or the search).
enum TextEdit {
    /// The key changed the text (or was a character the text took).
    case editing
    /// Enter: keep the text.
    case done
    /// Esc: drop the edit.
    case undone
    /// Not a text key: it acts as it would outside the edit (movement keeps working).
    case notText
}

/// Applies `key` to `text` being typed.
func edit(_ text: inout String, with key: Key) -> TextEdit {
    switch key {
    case .character(let character):
        text.append(character)
        return .editing
    case .backspace:
        if !text.isEmpty { text.removeLast() }
        return .editing
    case .enter: return .done
    case .escape: return .undone
    default: return .notText
    }
}

/// Selects the next (or previous) row the search matches, wrapping round, and says where it is
/// among the matches ("3/12 matches for 'photo'") or that nothing matches; rows stay as they
/// are. `includingCurrent`: the selected row counts when it matches (Enter of a new search).
func jumpToMatch(_ state: inout DashboardState, forward: Bool, includingCurrent: Bool = false) {
    guard !state.search.isEmpty else {
        state.message = "no search: / starts one"
        return
    }
    let matches = SearchMatch.rows(in: state)
    let current =
        state.selectedID.flatMap { state.rows.index(of: $0, in: state.snapshot) } ?? state.selectedIndex
    guard
        let position = SearchMatch.next(
            from: current, in: matches, forward: forward, includingCurrent: includingCurrent)
    else {
        state.message = "no match for '\(state.search)'"
        return
    }
    select(&state, index: matches[position])
    state.message = "\(position + 1)/\(matches.count) match\(matches.count == 1 ? "" : "es") for '\(state.search)'"
}
