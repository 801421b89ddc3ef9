/// An operation's state changes, held so that the usual life (added, started, finished) takes
/// no array: the first change inline, a start and a finish told by the row's own times.
extension OperationSnapshot {
    /// Which of an operation's start and finish its history holds as the row's fields tell them
    /// (`StateChange(time: startedAt, lifecycle: .executing)`, then `StateChange(time:
    /// finishedAt, lifecycle: .finished, outcome: outcome)`), after `firstChange`. Setting one of
    /// those fields first writes the history out (`holdHistoryApart(finish:)`), so it never changes.
    /// One byte, which the row's layout has room for.
    struct HistoryFromTimes: Equatable {
        private var bits: UInt8 = 0

        var started: Bool {
            get { bits & 1 != 0 }
            set { bits = newValue ? bits | 1 : bits & ~1 }
        }
        var finished: Bool {
            get { bits & 2 != 0 }
            set { bits = newValue ? bits | 2 : bits & ~2 }
        }
        /// The number of changes told.
        var count: Int { bits.nonzeroBitCount }
        var isEmpty: Bool { bits == 0 }
    }

    /// Every state change, oldest first.
    public var history: [StateChange] {
        get {
            guard changes.isEmpty else { return changes }
            guard let first = firstChange else { return [] }
            return historyFromTimes.isEmpty ? [first] : [first] + changesFromTimes
        }
        set {
            changes = newValue.count > 1 ? newValue : []
            firstChange = newValue.count == 1 ? newValue[0] : nil
            historyFromTimes = HistoryFromTimes()
        }
    }

    /// Calls `body` with every state change, oldest first, building no array.
    package func forEachChange(_ body: (StateChange) -> Void) {
        guard changes.isEmpty else {
            for change in changes { body(change) }
            return
        }
        guard let firstChange else { return }
        body(firstChange)
        if historyFromTimes.started, let startedAt { body(StateChange(time: startedAt, lifecycle: .executing)) }
        if historyFromTimes.finished, let finishedAt {
            body(StateChange(time: finishedAt, lifecycle: .finished, outcome: outcome))
        }
    }

    /// The changes `historyFromTimes` tells, oldest first.
    private var changesFromTimes: [StateChange] {
        var told: [StateChange] = []
        if historyFromTimes.started, let startedAt { told.append(StateChange(time: startedAt, lifecycle: .executing)) }
        if historyFromTimes.finished, let finishedAt {
            told.append(StateChange(time: finishedAt, lifecycle: .finished, outcome: outcome))
        }
        return told
    }

    /// Adds `change` to the history, keeping at most `limit` changes: past it the oldest but the
    /// first (added) goes. Changes the row in place (reading `history` builds an array); a
    /// start or finish that the row's fields already tell (the store sets them first) is only
    /// marked, and a history of an added, started and finished operation allocates nothing.
    @inline(__always)
    package mutating func appendChange(_ change: StateChange, keeping limit: Int) {
        // The usual case, inlined where the store changes the row.
        if changes.isEmpty, firstChange != nil, historyFromTimes.count + 2 <= limit, isTold(change) {
            if change.lifecycle == .executing {
                historyFromTimes.started = true
            } else {
                historyFromTimes.finished = true
            }
            return
        }
        appendChangeToList(change, keeping: limit)
    }

    /// `appendChange` of a change the row's fields do not tell.
    private mutating func appendChangeToList(_ change: StateChange, keeping limit: Int) {
        if changes.isEmpty {
            guard let first = firstChange else {
                firstChange = change
                return
            }
            // Room for the usual ready → executing → finished without growing.
            changes.reserveCapacity(3)
            changes.append(first)
            changes.append(contentsOf: changesFromTimes)
            historyFromTimes = HistoryFromTimes()
            firstChange = nil
        }
        changes.append(change)
        if changes.count > limit { changes.remove(at: 1) }
        if changes.count == 1 {
            firstChange = changes[0]
            changes = []
        }
    }

    /// Whether `change` is the next change the row's fields can tell: its start at `startedAt`
    /// before anything else, or its finish at `finishedAt` with `outcome`.
    @inline(__always)
    private func isTold(_ change: StateChange) -> Bool {
        // A change told by a time holds that time's nanoseconds (never `noTime` when set).
        switch change.lifecycle {
        case .executing:
            return historyFromTimes.isEmpty && change.outcome == nil && change.timeNanoseconds == startedNanoseconds
        case .finished:
            return !historyFromTimes.finished && change.outcome == outcome
                && change.timeNanoseconds == finishedNanoseconds
        case .waiting, .ready:
            return false
        }
    }

    /// Writes out the changes the row's fields tell into `changes` before a field a told change
    /// reads changes: `startedAt` (`finish` false) or `finishedAt` or `outcome` (`finish` true).
    mutating func holdHistoryApart(finish: Bool) {
        guard finish ? historyFromTimes.finished : historyFromTimes.started, let first = firstChange else { return }
        changes = [first] + changesFromTimes
        firstChange = nil
        historyFromTimes = HistoryFromTimes()
    }
}
