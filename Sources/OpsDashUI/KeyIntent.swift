/// What a key asks of the dashboard. The key table maps keys to intents; the reducer acts on
/// intents, so a key is rebound in one place.
enum KeyIntent: Sendable, Equatable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case cancelSelected, cancelAll, togglePause, raiseLimit, lowerLimit
    case toggleDependencies, toggleDetails, switchFocus, editFilter, nextSort
    /// `/`, `n`, `N`: type a search; select the next / previous row it matches.
    case editSearch, nextMatch, previousMatch
    /// `!`: list only the failed operations.
    case toggleFailedOnly
    /// `X`: cancel the unfinished operations the filter lists; `x`: the selected one and every
    /// operation depending on it (each asks y/n).
    case cancelMatching, cancelSubtree
    /// `h`: the history view replaces the table.
    case toggleHistory
    /// `a`: the event log shows only the queue's changes and the commands given to it.
    case toggleCommandLog
    /// Esc: close the innermost pane or overlay, or clear the filter.
    case close
    /// Ctrl-L: clear the terminal and draw every cell again.
    case repaint
    case help, quit

    /// Whether the intent acts on the queue: cancel, pause / resume, the concurrency limit.
    var controlsQueue: Bool {
        switch self {
        case .cancelSelected, .cancelAll, .cancelMatching, .cancelSubtree, .togglePause, .raiseLimit, .lowerLimit:
            true
        default: false
        }
    }

    /// The row the selection (or a scrolled pane) moves to from `current`, `page` rows a
    /// page; nil for intents that don't move.
    func target(from current: Int, page: Int) -> Int? {
        switch self {
        case .moveUp: current - 1
        case .moveDown: current + 1
        case .pageUp: current - page
        case .pageDown: current + page
        case .first: 0
        case .last: Int.max / 2
        default: nil
        }
    }
}
