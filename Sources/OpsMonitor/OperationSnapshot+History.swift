/// An operation's state changes, held so that a queued operation's one change takes no array.
extension OperationSnapshot {
    /// Every state change, oldest first.
    public var history: [StateChange] {
        get {
            guard changes.isEmpty else { return changes }
            return firstChange.map { [$0] } ?? []
        }
        set {
            changes = newValue.count > 1 ? newValue : []
            firstChange = newValue.count == 1 ? newValue[0] : nil
        }
    }

    /// Adds `change` to the history, keeping at most `limit` changes: past it the oldest but the
    /// first (added) goes. Changes the row in place (reading `history` builds an array).
    package mutating func appendChange(_ change: StateChange, keeping limit: Int) {
        if changes.isEmpty {
            guard let first = firstChange else {
                firstChange = change
                return
            }
            // Room for the usual ready → executing → finished without growing.
            changes.reserveCapacity(3)
            changes.append(first)
            firstChange = nil
        }
        changes.append(change)
        if changes.count > limit { changes.remove(at: 1) }
        if changes.count == 1 {
            firstChange = changes[0]
            changes = []
        }
    }
}
