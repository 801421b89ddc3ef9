import Foundation

extension AsyncOperation {
    // MARK: Transitions

    /// Claims and applies a transition, publishing it to observers and then to Foundation.
    @discardableResult
    func transition(to next: OperationState, outcome: OperationOutcome?) -> Bool {
        let claim = locked.withLock { state -> (OperationState, ObservableOperationQueue?)? in
            guard !state.transitioning, state.state.canTransition(to: next) else { return nil }
            state.transitioning = true
            return (state.state, next == .executing ? state.queue : nil)
        }
        guard let (previous, startingIn) = claim else {
            let current = state
            if !(current == .finished && next == .finished) {
                IllegalTransitionReporter.report("\(describe()): illegal transition \(current) → \(next)")
            }
            return false
        }
        let executingChanges = previous == .executing || next == .executing
        let finishing = next == .finished
        if executingChanges {
            keyWillChange("isExecuting", old: previous == .executing)
        }
        if finishing { keyWillChange("isFinished", old: false) }
        #if !canImport(ObjectiveC)
        keyValueObservers.willChange("state", old: previous, owner: self)
        #endif
        let publisher = finishing ? currentThreadID() : nil
        let (listeners, queue, ticket) = locked.withLock { state in
            state.state = next
            state.transitioning = false
            state.publishingFinishOn = publisher
            if let outcome { state.outcome = outcome }
            guard finishing else {
                return ([@Sendable (AsyncOperation) -> Void](), ObservableOperationQueue?.none, UInt64(0))
            }
            defer { state.finishListeners = [] }
            return (state.finishListeners, state.queue, state.queueTicket)
        }
        if executingChanges {
            keyDidChange("isExecuting", old: previous == .executing, new: next == .executing)
        }
        if finishing {
            keyDidChange("isFinished", old: false, new: true)
        }
        #if !canImport(ObjectiveC)
        keyValueObservers.didChange("state", old: previous, new: next, owner: self)
        #endif
        startingIn?.operationStarted(self)
        if finishing {
            queue?.operationFinished(self, ticket: ticket, wasExecuting: previous == .executing)
            for listener in listeners { listener(self) }
        }
        // Foundation's queue learns last, so observers see the finish before the next start
        // (its read of `isFinished` after `start()` waits for this too: see `isFinished`).
        if finishing {
            locked.withLock { state in
                state.publishingFinishOn = nil
                state.startReturnedOn = nil
            }
        }
        if executingChanges { didChangeValue(forKey: "isExecuting") }
        if finishing { didChangeValue(forKey: "isFinished") }
        return true
    }

    private func keyWillChange(_ key: String, old: Bool) {
        willChangeValue(forKey: key)
        #if !canImport(ObjectiveC)
        keyValueObservers.willChange(key, old: old, owner: self)
        #endif
    }

    private func keyDidChange(_ key: String, old: Bool, new: Bool) {
        #if !canImport(ObjectiveC)
        keyValueObservers.didChange(key, old: old, new: new, owner: self)
        #endif
    }

    func describe() -> String {
        "\(type(of: self))(\(name ?? "unnamed"))"
    }
}
