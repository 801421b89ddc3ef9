/// `X`: asks to cancel the unfinished operations the filter (and the failed-only toggle) lists,
/// saying how many; in the dependency tree, rows listed only as context don't count.
func askCancelMatching(_ state: inout DashboardState) -> [Command] {
    guard !state.filter.isEmpty || state.failedOnly else {
        state.message = "no filter: f sets one (C cancels all)"
        return []
    }
    let rows = state.rows
    var ids: [Int] = []
    for index in 0..<rows.count(in: state.snapshot) {
        guard index >= rows.isContext.count || !rows.isContext[index],
            let operation = rows.operation(at: index, in: state.snapshot), !operation.hasFinished
        else { continue }
        ids.append(operation.id)
    }
    return ask(&state, .cancelMatching(operationIDs: ids.sorted(), filter: state.filter))
}

/// `x`: asks to cancel the selected operation and every operation depending on it, counting
/// only the unfinished ones.
func askCancelSubtree(_ state: inout DashboardState) -> [Command] {
    guard let root = state.selectedOperation else {
        state.message = "nothing selected to cancel"
        return []
    }
    let snapshot = state.snapshot
    let ids = ([root.id] + Dependents.transitive(of: root.id, in: snapshot)).filter {
        snapshot.operation(id: $0)?.hasFinished == false
    }
    return ask(&state, .cancelSubtree(root: root.id, operationIDs: ids))
}

/// Opens `prompt`, or says there is nothing to cancel. A source that takes no commands (a
/// recording, a read-only attach) gets the command at once, to refuse it with its reason.
private func ask(_ state: inout DashboardState, _ prompt: Prompt) -> [Command] {
    if state.source?.acceptsCommands == false { return [.cancelMany(operationIDs: prompt.operationIDs)] }
    guard !prompt.operationIDs.isEmpty else {
        state.message = "nothing to cancel: every one of them has finished"
        return []
    }
    state.prompt = prompt
    return []
}
