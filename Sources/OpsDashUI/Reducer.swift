import OpsMonitor

/// Concurrency limits `+` and `-` step within, and the range `--concurrency` accepts.
public let concurrencyRange = 1...1024

/// Applies `action` to `state` and returns what the run loop must do to the real queue.
public func reduce(_ state: inout DashboardState, _ action: Action) -> [Command] {
    var commands: [Command] = []
    switch action {
    case .tick(let snapshot):
        state.keepCommands(of: snapshot)
        state.snapshot = snapshot
        if state.pendingConcurrency == snapshot.maxConcurrentOperationCount {
            state.pendingConcurrency = nil
        }
        if state.pendingSuspended == snapshot.isSuspended {
            state.pendingSuspended = nil
        }
        if case .cancelAll? = state.prompt {
            let count = unfinishedCount(snapshot)
            state.prompt = count == 0 ? nil : .cancelAll(count: count)
        } else if let prompt = state.prompt {
            state.prompt = prompt.keeping { snapshot.operation(id: $0)?.hasFinished == false }
        }
    case .resize(let width, let height):
        state.width = max(0, width)
        state.height = max(0, height)
    case .key(let key):
        state.message = nil
        commands = handle(key, &state)
    case .source(let source):
        state.source = source
    case .refused(let reason, let command):
        state.message = reason
        forgetPending(&state, refused: command)
    case .notice(let text):
        state.message = text
    case .noticeExpired(let text):
        if state.message == text { state.message = nil }
    }
    refreshRows(&state)
    followSelection(&state)
    if state.detailsOperationID != state.selectedID {
        state.detailsOperationID = state.selectedID
        state.detailsScroll = 0
    }
    return commands
}

/// Forgets the pending limit or pause that `command` asked for (both when it is not known): a
/// refused cancel leaves a limit asked for since standing, and so does a refused older limit.
private func forgetPending(_ state: inout DashboardState, refused command: Command?) {
    switch command {
    case nil:
        state.pendingConcurrency = nil
        state.pendingSuspended = nil
    case .setMaxConcurrentOperationCount(let limit)?:
        if state.pendingConcurrency == limit { state.pendingConcurrency = nil }
    case .setSuspended(let suspended)?:
        if state.pendingSuspended == suspended { state.pendingSuspended = nil }
    case .cancel?, .cancelAll?, .cancelMany?, .repaint?, .quit?:
        break
    }
}

/// When a cancelled ready operation finishes, if not at once: Foundation's queue finishes it
/// only by starting it, so not while the queue is paused or every slot is busy (until then it
/// still reads "ready").
private func readyCancelDelay(_ state: DashboardState) -> String? {
    if state.effectiveSuspended { return "once the queue resumes (p)" }
    let limit = state.effectiveConcurrency
    if limit > 0, state.snapshot.counts.executing >= limit { return "when a slot frees" }
    return nil
}

/// Operations not yet finished.
func unfinishedCount(_ snapshot: QueueSnapshot) -> Int {
    snapshot.counts.total - snapshot.counts.finished
}

/// Routes a key to the prompt, the filter editor, the help overlay or the main key map; bound
/// keys act through their intent in `KeyBinding.table`.
///
/// Ctrl-L repaints whatever is shown. While the terminal is too small to show the dashboard
/// only `q` (quit) acts: every other key would change something the operator can't see.
private func handle(_ key: Key, _ state: inout DashboardState) -> [Command] {
    let intent = KeyBinding.intent(for: key)
    if intent == .repaint { return [.repaint] }
    guard Layout(state).fits else {
        return intent == .quit ? [.quit] : []
    }
    if let prompt = state.prompt {
        state.prompt = nil
        return answer(prompt, with: key, &state)
    }
    if state.isEditingFilter || state.isEditingSearch, editText(with: key, &state) { return [] }
    guard let intent else { return [] }
    if state.showHelp {
        let page = max(1, HelpOverlay.visibleLines(height: state.height))
        switch intent {
        case .help, .close: state.showHelp = false
        case .quit: return [.quit]
        default:
            if let line = intent.target(from: state.helpScroll, page: page) { scrollHelp(&state, to: line) }
        }
        return []
    }
    if state.showDetails && state.isDetailsFocused {
        let page = max(1, (Layout(state).details?.height ?? 2) - 1)
        guard let line = intent.target(from: state.detailsScroll, page: page) else {
            return mainKey(intent, &state)
        }
        scrollDetails(&state, to: line)
        return []
    }
    return mainKey(intent, &state)
}

/// The answer to a y/n prompt: `y` or `Y` does what it asked, any other key drops it.
private func answer(_ prompt: Prompt, with key: Key, _ state: inout DashboardState) -> [Command] {
    switch (prompt, key) {
    case (.cancelAll, .character("y")), (.cancelAll, .character("Y")):
        // Running ones are cancelled too, so only a pause keeps ready ones waiting.
        let ready = state.snapshot.counts.ready
        if ready > 0, state.effectiveSuspended, let until = readyCancelDelay(state) {
            let which = ready == 1 ? "the ready one finishes" : "the \(ready) ready ones finish"
            state.message = "cancelling all: \(which) as cancelled \(until)"
        }
        return [.cancelAll]
    case (.cancelMatching(let ids, _), .character("y")), (.cancelMatching(let ids, _), .character("Y")),
        (.cancelSubtree(_, let ids), .character("y")), (.cancelSubtree(_, let ids), .character("Y")):
        state.message = "cancelling \(ids.count) operation\(ids.count == 1 ? "" : "s")"
        return [.cancelMany(operationIDs: ids)]
    default: return []
    }
}

/// A key typed into the filter or the search being edited; false when it is not text (movement
/// still works while typing), so the key map takes it.
private func editText(with key: Key, _ state: inout DashboardState) -> Bool {
    if state.isEditingFilter {
        switch edit(&state.filter, with: key) {
        case .editing: return true
        case .done:
            state.isEditingFilter = false
            return true
        case .undone:
            // Cancels the edit: the filter from before `f` comes back.
            state.isEditingFilter = false
            state.filter = state.filterBeforeEdit
            return true
        case .notText: return false
        }
    }
    switch edit(&state.search, with: key) {
    case .editing: return true
    case .done:
        state.isEditingSearch = false
        jumpToMatch(&state, forward: true, includingCurrent: true)
        return true
    case .undone:
        state.isEditingSearch = false
        state.search = state.searchBeforeEdit
        return true
    case .notText: return false
    }
}

/// Scrolls the help to `line`, clamped to its length.
private func scrollHelp(_ state: inout DashboardState, to line: Int) {
    let count = HelpOverlay(state).lines(
        terminalWidth: state.width
    ).count
    let visible = HelpOverlay.visibleLines(height: state.height)
    state.helpScroll = max(0, min(count - visible, line))
}

/// Scrolls the details pane to `line`, clamped to its length.
private func scrollDetails(_ state: inout DashboardState, to line: Int) {
    guard let band = Layout(state).details else { return }
    let count = DetailsView(state).lines(width: state.width).count
    state.detailsScroll = max(0, min(count - (band.height - 1), line))
}

/// The key map when no prompt, filter edit or help is active.
private func mainKey(_ intent: KeyIntent, _ state: inout DashboardState) -> [Command] {
    let page = max(1, Layout(state).visibleRows)
    switch intent {
    case .moveUp, .moveDown, .pageUp, .pageDown:
        let current = state.selectedID.flatMap { state.rows.index(of: $0, in: state.snapshot) }
        select(&state, index: intent.target(from: current ?? state.selectedIndex, page: page) ?? 0)
    case .first: select(&state, index: 0)
    case .last: select(&state, index: state.rows.count(in: state.snapshot) - 1)
    case .quit: return [.quit]
    case .help: state.showHelp = true
    case .cancelSelected: return cancelSelected(&state)
    case .cancelAll: return askCancelAll(&state)
    case .togglePause:
        let next = !state.effectiveSuspended
        state.pendingSuspended = next
        return [.setSuspended(next)]
    case .raiseLimit:
        return changeConcurrency(&state, by: 1)
    case .lowerLimit:
        return changeConcurrency(&state, by: -1)
    case .toggleDependencies:
        state.showDependencies.toggle()
        state.showHistory = false
    case .toggleHistory: state.showHistory.toggle()
    case .toggleCommandLog: state.showCommandLog.toggle()
    case .toggleDetails:
        state.showDetails.toggle()
        state.isDetailsFocused = false
    case .switchFocus:
        if state.showDetails { state.isDetailsFocused.toggle() }
    case .editFilter:
        // Edits the filter in place; Esc brings back what it was.
        state.isEditingSearch = false
        state.isEditingFilter = true
        state.filterBeforeEdit = state.filter
    case .editSearch: beginSearch(&state)
    case .nextMatch: jumpToMatch(&state, forward: true)
    case .previousMatch: jumpToMatch(&state, forward: false)
    case .toggleFailedOnly:
        state.failedOnly.toggle()
        state.message = state.failedOnly ? "failed only (! again: all)" : "all operations listed"
    case .cancelMatching: return askCancelMatching(&state)
    case .cancelSubtree: return askCancelSubtree(&state)
    case .nextSort: state.sort = state.sort.next
    case .close: close(&state)
    case .repaint: return [.repaint]
    }
    return []
}

/// `c`: cancels the selected operation, or says why there is nothing to cancel.
private func cancelSelected(_ state: inout DashboardState) -> [Command] {
    if state.source?.acceptsCommands == false, let operation = state.selectedOperation {
        // A recording, or an app attached read-only or not connected, whatever the row:
        // the source refuses it with its reason.
        return [.cancel(operationID: operation.id)]
    }
    guard let operation = state.selectedOperation else {
        state.message = "nothing selected to cancel"
        return []
    }
    guard !operation.hasFinished else {
        state.message = "#\(operation.id) already \(operation.displayState.word); nothing to cancel"
        return []
    }
    state.message = "cancelling #\(operation.id)"
    if operation.displayState == .ready, let until = readyCancelDelay(state) {
        state.message = "cancelling #\(operation.id): it finishes as cancelled \(until)"
    }
    return [.cancel(operationID: operation.id)]
}

/// `C`: asks before cancelling every unfinished operation, or says there is none.
private func askCancelAll(_ state: inout DashboardState) -> [Command] {
    let count = unfinishedCount(state.snapshot)
    if state.source?.acceptsCommands == false {
        // A recording, or an app attached read-only or not connected: no question, the
        // source refuses it at once.
        return [.cancelAll]
    } else if count > 0 {
        state.prompt = .cancelAll(count: count)
    } else {
        state.message = "nothing left to cancel: every operation has finished"
    }
    return []
}

/// `/`: types a new search; Esc brings back the one before.
private func beginSearch(_ state: inout DashboardState) {
    state.isEditingFilter = false
    state.isEditingSearch = true
    state.searchBeforeEdit = state.search
    state.search = ""
}

/// Esc: closes the innermost pane open (details, history, dependencies), else clears the
/// filter and the failed-only view.
private func close(_ state: inout DashboardState) {
    if state.showDetails {
        state.showDetails = false
        state.isDetailsFocused = false
    } else if state.showHistory {
        state.showHistory = false
    } else if state.showDependencies {
        state.showDependencies = false
    } else {
        state.filter = ""
        state.failedOnly = false
    }
}

/// Steps the concurrency limit by `delta` (±1) within `concurrencyRange`, remembering the
/// request; a step never moves the limit the other way, and one that can't move says why.
///
/// A limit above the range (a scenario's own, or none at all) counts as above the top: `+`
/// leaves it, `-` steps down from it (to the top of the range when there is no limit).
private func changeConcurrency(_ state: inout DashboardState, by delta: Int) -> [Command] {
    let current = state.effectiveConcurrency
    let unlimited = current < 1
    let next: Int
    if delta > 0 {
        guard !unlimited, current < concurrencyRange.upperBound else {
            let top = concurrencyRange.upperBound
            state.message =
                unlimited
                ? "the queue has no concurrency limit"
                : current == top
                    ? "concurrency limit already at the maximum (\(top))"
                    : "concurrency limit \(current) is above what + sets (\(top))"
            return []
        }
        next = current + 1
    } else {
        guard unlimited || current > concurrencyRange.lowerBound else {
            state.message = "concurrency limit already at the minimum (\(concurrencyRange.lowerBound))"
            return []
        }
        next = unlimited ? concurrencyRange.upperBound : current - 1
    }
    state.pendingConcurrency = next
    return [.setMaxConcurrentOperationCount(next)]
}

/// Selects row `index`, clamped to the rows.
func select(_ state: inout DashboardState, index: Int) {
    let count = state.rows.count(in: state.snapshot)
    guard count > 0 else { return }
    let clamped = min(count - 1, max(0, index))
    state.selectedIndex = clamped
    state.selectedID = state.rows.operation(at: clamped, in: state.snapshot)?.id
}

/// Recomputes the cached rows when the snapshot, sort, filter or view changed.
func refreshRows(_ state: inout DashboardState) {
    guard let wanted = wantedRows(state) else { return }
    if let key = wanted {
        let snapshot = state.snapshot
        state.rows = RowOrder.make(
            for: snapshot, sort: key.sort, filter: key.filter, tree: key.tree, failedOnly: key.failedOnly,
            previous: state.rows)
    } else {
        state.rows = .byID
    }
}

/// What `refreshRows` would make of `state`'s rows: nil when they are current, else the key
/// of the rows to make (nil inside: `byID`).
private func wantedRows(_ state: borrowing DashboardState) -> RowOrder.Key?? {
    if !state.showDependencies && state.sort == .id && state.filter.isEmpty && !state.failedOnly {
        return state.rows.isByID ? nil : .some(nil)
    }
    let snapshot = state.snapshot
    let wanted = RowOrder.Key(
        version: snapshot.version, sort: state.sort, filter: state.filter,
        tree: state.showDependencies, operationCount: snapshot.operations.count, failedOnly: state.failedOnly)
    return state.rows.key == wanted ? nil : .some(wanted)
}

/// Whether `state` is as `refreshRows` and `followSelection` leave it (as `reduce` does): then
/// rendering it needs no copy to settle it first.
func isSettled(_ state: borrowing DashboardState) -> Bool {
    guard wantedRows(state) == nil else { return false }
    let followed = followedSelection(state)
    return followed.index == state.selectedIndex && followed.id == state.selectedID
        && followed.offset == state.scrollOffset
}

/// Keeps the selection on the same operation (or the nearest row) and scrolls it into view.
func followSelection(_ state: inout DashboardState) {
    let followed = followedSelection(state)
    state.selectedIndex = followed.index
    state.selectedID = followed.id
    state.scrollOffset = followed.offset
}

/// The selection (its row and operation) and scroll offset that keep the selection on the same
/// operation (or the nearest row) and in view, for `state`'s rows.
private func followedSelection(_ state: borrowing DashboardState) -> (index: Int, id: Int?, offset: Int) {
    let rows = state.rows
    let snapshot = state.snapshot
    let count = rows.count(in: snapshot)
    var index = state.selectedIndex
    var id = state.selectedID
    var offset = state.scrollOffset
    guard count > 0 else { return (index, id, 0) }
    if let selected = id, rows.operation(at: index, in: snapshot)?.id == selected {
        // Still on the same row: no search needed (keeps render cheap).
    } else if let selected = id, let found = rows.index(of: selected, in: snapshot) {
        index = found
    } else {
        index = id.map { rows.nearestIndex(to: $0, previousIndex: index, in: snapshot) } ?? 0
        id = rows.operation(at: index, in: snapshot)?.id
    }
    let visible = max(1, Layout(state).visibleRows)
    if index < offset {
        offset = index
    } else if index >= offset + visible {
        offset = index - visible + 1
    }
    offset = min(offset, max(0, count - visible))
    offset = max(0, offset)
    return (index, id, offset)
}
