import Foundation

extension AsyncOperation {
    // MARK: Finish listeners

    /// Runs `listener` once when this operation finishes (at once if it already has), before the
    /// queue learns of it. For OpsKit's own bookkeeping; apps observe `isFinished`.
    public func onFinish(_ listener: @escaping @Sendable (AsyncOperation) -> Void) {
        let runNow = locked.withLock { state -> Bool in
            if state.state == .finished { return true }
            state.finishListeners.append(listener)
            return false
        }
        if runNow { listener(self) }
    }

    /// Runs `listener` once when this operation is cancelled (at once if it already is).
    /// For OpsKit's own bookkeeping; apps observe `isCancelled`.
    public func onCancel(_ listener: @escaping @Sendable (AsyncOperation) -> Void) {
        let runNow = locked.withLock { state -> Bool in
            if state.cancelled { return true }
            state.cancelListeners.append(listener)
            return false
        }
        if runNow { listener(self) }
    }

    /// Registers the queue that `operationFinished` is reported to (at once if finished);
    /// false if the operation already has a queue (it is in another queue's books, unfinished).
    func attach(to queue: ObservableOperationQueue, ticket: UInt64) -> Bool {
        let outcome = locked.withLock { state -> Bool? in
            guard state.queue == nil else { return nil }
            if state.state == .finished { return true }
            state.queue = queue
            state.queueTicket = ticket
            return false
        }
        guard let finishedAlready = outcome else { return false }
        if finishedAlready { queue.operationFinished(self, ticket: ticket, wasExecuting: false) }
        return true
    }
}
