import Foundation

extension AsyncOperation {
    // MARK: Transitions

    /// Claims and applies a transition, publishing it to observers and then to Foundation.
    @discardableResult
    func transition(to next: OperationState, outcome: OperationOutcome?) -> Bool {
        guard let claimed = claimTransition(to: next) else { return false }
        let (previous, startingIn, startTicket) = claimed
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
            state.transitioningTo = nil
            state.publishingFinishOn = publisher
            if let outcome { state.outcome = outcome }
            guard finishing else {
                return ([@Sendable (AsyncOperation) -> Void](), ObservableOperationQueue?.none, UInt64(0))
            }
            // The queue is let go of here, told of the finish below.
            defer {
                state.finishListeners = []
                state.queue = nil
            }
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
        startingIn?.operationStarted(self, ticket: startTicket)
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

    /// Claims the move to `next` for this caller: the state moved from and the queue to tell of a
    /// start (with the operation's ticket there); nil when another caller is finishing it
    /// already or the move is illegal (reported).
    private func claimTransition(
        to next: OperationState
    ) -> (OperationState, ObservableOperationQueue?, UInt64)? {
        let claim = locked.withLock { state -> TransitionClaim in
            if let inFlight = state.transitioningTo {
                // Two finishes at once (two callbacks, or a cancel and the work's own finish):
                // the later one is a no-op, like a finish after the finish.
                return inFlight == .finished && next == .finished ? .alreadyFinishing : .refused(state.state, inFlight)
            }
            guard state.state.canTransition(to: next) else {
                return state.state == .finished && next == .finished ? .alreadyFinishing : .refused(state.state, nil)
            }
            state.transitioningTo = next
            return .claimed(state.state, next == .executing ? state.queue : nil, state.queueTicket)
        }
        switch claim {
        case .claimed(let from, let queue, let ticket):
            return (from, queue, ticket)
        case .alreadyFinishing:
            return nil
        case .refused(let current, let inFlight):
            let moving = inFlight.map { " (while moving to \($0))" } ?? ""
            IllegalTransitionReporter.report("\(describe()): illegal transition \(current) → \(next)\(moving)")
            return nil
        }
    }

    /// What a request for a transition got.
    private enum TransitionClaim {
        /// This caller makes it: from this state, telling this queue of a start (with this ticket).
        case claimed(OperationState, ObservableOperationQueue?, UInt64)
        /// A finish while the operation finishes or has finished: nothing to do.
        case alreadyFinishing
        /// Not allowed from this state (or while a transition to the second one is under way).
        case refused(OperationState, OperationState?)
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
