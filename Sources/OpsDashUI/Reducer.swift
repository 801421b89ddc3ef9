import OpsMonitor

/// Concurrency limits `+` and `-` stay within.
public let concurrencyRange = 1...64

/// Applies `action` to `state` and returns what the run loop must do to the real queue.
public func reduce(_ state: inout DashboardState, _ action: Action) -> [Command] {
    var commands: [Command] = []
    switch action {
    case .tick(let snapshot):
        state.snapshot = snapshot
        if state.pendingConcurrency == snapshot.maxConcurrentOperationCount {
            state.pendingConcurrency = nil
        }
        if let prompt = state.prompt, case .cancelAll = prompt, unfinishedCount(snapshot) == 0 {
            state.prompt = nil
        }
    case .resize(let width, let height):
        state.width = max(0, width)
        state.height = max(0, height)
    case .key(let key):
        state.notice = nil
        commands = handle(key, &state)
    case .source(let source):
        state.source = source
    case .refused(let reason):
        state.notice = reason
        state.pendingConcurrency = nil
    }
    refreshRows(&state)
    followSelection(&state)
    return commands
}

/// Operations not yet finished.
func unfinishedCount(_ snapshot: QueueSnapshot) -> Int {
    snapshot.counts.total - snapshot.counts.finished
}

/// Routes a key to the prompt, the filter editor, the help overlay or the main key map.
private func handle(_ key: Key, _ state: inout DashboardState) -> [Command] {
    if let prompt = state.prompt {
        state.prompt = nil
        switch (prompt, key) {
        case (.cancelAll, .character("y")), (.cancelAll, .character("Y")): return [.cancelAll]
        default: return []
        }
    }
    if state.isEditingFilter {
        switch key {
        case .character(let character):
            state.filter.append(character)
            return []
        case .backspace:
            if !state.filter.isEmpty { state.filter.removeLast() }
            return []
        case .enter:
            state.isEditingFilter = false
            return []
        case .escape:
            state.isEditingFilter = false
            state.filter = ""
            return []
        default: break  // Movement still works while typing.
        }
    }
    if state.showHelp {
        switch key {
        case .character("?"), .escape: state.showHelp = false
        case .character("q"): return [.quit]
        default: break
        }
        return []
    }
    return mainKey(key, &state)
}

/// The key map when no prompt, filter edit or help is active.
private func mainKey(_ key: Key, _ state: inout DashboardState) -> [Command] {
    let page = max(1, Layout(state).visibleRows)
    switch key {
    case .up, .character("k"): move(&state, by: -1)
    case .down, .character("j"): move(&state, by: 1)
    case .pageUp: move(&state, by: -page)
    case .pageDown: move(&state, by: page)
    case .home: select(&state, index: 0)
    case .end: select(&state, index: state.rows.count(in: state.snapshot) - 1)
    case .character("q"): return [.quit]
    case .character("?"): state.showHelp = true
    case .character("c"):
        if let operation = state.selectedOperation, !operation.hasFinished {
            return [.cancel(operationID: operation.id)]
        }
    case .character("C"):
        let count = unfinishedCount(state.snapshot)
        if count > 0 { state.prompt = .cancelAll(count: count) }
    case .character("p"), .character(" "):
        return [.setSuspended(!state.snapshot.isSuspended)]
    case .character("+"), .character("="):
        return changeConcurrency(&state, by: 1)
    case .character("-"), .character("_"):
        return changeConcurrency(&state, by: -1)
    case .character("d"): state.showDependencies.toggle()
    case .enter: state.showDetails.toggle()
    case .character("/"):
        state.isEditingFilter = true
        state.filter = ""
    case .character("s"): state.sort = state.sort.next
    case .escape:
        if state.showDetails {
            state.showDetails = false
        } else if state.showDependencies {
            state.showDependencies = false
        } else {
            state.filter = ""
        }
    default: break
    }
    return []
}

/// Steps the concurrency limit by `delta` within `concurrencyRange`, remembering the request.
private func changeConcurrency(_ state: inout DashboardState, by delta: Int) -> [Command] {
    let current = state.effectiveConcurrency
    // A queue without a limit (-1) counts as the top of the range.
    let base = concurrencyRange.contains(current) ? current : concurrencyRange.upperBound
    let next = min(concurrencyRange.upperBound, max(concurrencyRange.lowerBound, base + delta))
    guard next != current else { return [] }
    state.pendingConcurrency = next
    return [.setMaxConcurrentOperationCount(next)]
}

/// Moves the selection by `delta` rows, clamped to the rows.
private func move(_ state: inout DashboardState, by delta: Int) {
    let current = state.selectedID.flatMap { state.rows.index(of: $0, in: state.snapshot) }
    select(&state, index: (current ?? state.selectedIndex) + delta)
}

/// Selects row `index`, clamped to the rows.
private func select(_ state: inout DashboardState, index: Int) {
    let count = state.rows.count(in: state.snapshot)
    guard count > 0 else { return }
    let clamped = min(count - 1, max(0, index))
    state.selectedIndex = clamped
    state.selectedID = state.rows.operation(at: clamped, in: state.snapshot)?.id
}

/// Recomputes the cached rows when the snapshot, sort, filter or view changed.
func refreshRows(_ state: inout DashboardState) {
    let snapshot = state.snapshot
    if !state.showDependencies && state.sort == .id && state.filter.isEmpty {
        state.rows = .byID
        return
    }
    let wanted = RowOrder.Key(
        version: snapshot.version, sort: state.showDependencies ? .id : state.sort,
        filter: state.showDependencies ? "" : state.filter, tree: state.showDependencies,
        operationCount: snapshot.operations.count)
    if state.rows.key != wanted {
        state.rows = RowOrder.make(
            for: snapshot, sort: wanted.sort, filter: wanted.filter, tree: wanted.tree)
    }
}

/// Keeps the selection on the same operation (or the nearest row) and scrolls it into view.
func followSelection(_ state: inout DashboardState) {
    let rows = state.rows
    let snapshot = state.snapshot
    let count = rows.count(in: snapshot)
    guard count > 0 else {
        state.scrollOffset = 0
        return
    }
    if let id = state.selectedID, rows.operation(at: state.selectedIndex, in: snapshot)?.id == id {
        // Still on the same row: no search needed (keeps render cheap).
    } else if let id = state.selectedID, let index = rows.index(of: id, in: snapshot) {
        state.selectedIndex = index
    } else {
        let index =
            state.selectedID.map {
                rows.nearestIndex(to: $0, previousIndex: state.selectedIndex, in: snapshot)
            } ?? 0
        state.selectedIndex = index
        state.selectedID = rows.operation(at: index, in: snapshot)?.id
    }
    let visible = max(1, Layout(state).visibleRows)
    if state.selectedIndex < state.scrollOffset {
        state.scrollOffset = state.selectedIndex
    } else if state.selectedIndex >= state.scrollOffset + visible {
        state.scrollOffset = state.selectedIndex - visible + 1
    }
    state.scrollOffset = min(state.scrollOffset, max(0, count - visible))
    state.scrollOffset = max(0, state.scrollOffset)
}
