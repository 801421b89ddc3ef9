import Foundation
import Synchronization

/// The state an `ObservedTaskGroup` shares with its children: results not yet read, the reader
/// waiting for one, and the children whose result has not come in (what a cancel reaches).
final class ObservedTaskGroupCore<ChildResult: Sendable>: Sendable {
    typealias ChildOutcome = Result<ChildResult, any Error>

    // Locking: everything mutable is in `state`; continuations are resumed and operations
    // cancelled after it is released.
    private struct State {
        /// Results in the order the children ended; those before `read` were read.
        var results: [ChildOutcome] = []
        var read = 0
        /// Children added whose result `next()` has not returned yet.
        var unread = 0
        /// The reader suspended in `next()` until a result comes.
        var waiter: CheckedContinuation<ChildOutcome?, Never>?
        /// Children whose result has not come in, by serial number.
        var pending: [UInt64: ObservedChildOperation] = [:]
        /// Set once the group is cancelled: the reason its children are cancelled with.
        var cancellation: String?
    }

    let queue: ObservableOperationQueue
    private let state = Mutex(State())

    init(queue: ObservableOperationQueue) {
        self.queue = queue
    }

    var isCancelled: Bool { state.withLock { $0.cancellation != nil } }

    /// Whether every child's result was read.
    var isEmpty: Bool { state.withLock { $0.unread == 0 } }

    /// Adds a child running `body` to the queue; in a cancelled group it starts cancelled.
    func add(
        name: String, kind: OperationKind, unit: ProgressUnit,
        body: @escaping @Sendable (ObservedTaskProgress) async throws -> ChildResult
    ) {
        let child = ObservedChildOperation(
            name: name, kind: kind, unit: unit,
            work: { [self] operation in
                let outcome: ChildOutcome
                do {
                    outcome = .success(try await body(ObservedTaskProgress(operation: operation)))
                } catch {
                    outcome = .failure(error)
                }
                // The row ends before the caller can read the result. A cancelled row is ended by
                // its cancel (which cancelled this Task): finishing here could get in first and
                // call it failed.
                if !operation.isCancelled {
                    if case .failure(let error) = outcome { operation.finish(error: error) } else { operation.finish() }
                }
                deliver(outcome, from: operation)
            },
            skip: { [self] operation in deliver(.failure(CancellationError()), from: operation) })
        let cancellation = state.withLock { state -> String?? in
            state.unread += 1
            state.pending[child.serialNumber] = child
            return state.cancellation.map { .some($0) }
        }
        if let reason = cancellation { child.cancel(reason: reason) }
        queue.addOperation(child)
    }

    /// Hands `outcome` to the waiting reader, or keeps it for the next read.
    private func deliver(_ outcome: ChildOutcome, from child: ObservedChildOperation) {
        let waiter = state.withLock { state -> CheckedContinuation<ChildOutcome?, Never>? in
            state.pending[child.serialNumber] = nil
            guard let waiter = state.waiter else {
                state.results.append(outcome)
                return nil
            }
            state.waiter = nil
            state.unread -= 1
            return waiter
        }
        waiter?.resume(returning: outcome)
    }

    /// The next child's result in the order they end; nil once every result was read.
    func next() async -> ChildOutcome? {
        await withCheckedContinuation { (continuation: CheckedContinuation<ChildOutcome?, Never>) in
            let ready = state.withLock { state -> ChildOutcome?? in
                if state.read < state.results.count {
                    let outcome = state.results[state.read]
                    state.read += 1
                    state.unread -= 1
                    if state.read == state.results.count {
                        state.results.removeAll(keepingCapacity: true)
                        state.read = 0
                    }
                    return .some(outcome)
                }
                if state.unread == 0 { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Waits for every child, dropping their results.
    func drain() async {
        while await next() != nil {}
    }

    /// Cancels every child whose result has not come in, and every child added later, with
    /// `reason` (shown in their rows' outcome). Only the first cancel's reason counts.
    func cancelAll(reason: String) {
        let children = state.withLock { state -> [ObservedChildOperation] in
            if state.cancellation == nil { state.cancellation = reason }
            return Array(state.pending.values)
        }
        let reason = state.withLock { $0.cancellation } ?? reason
        // Waiting children first: a running child's cancel frees its slot, and the queue would
        // start a waiting child whose cancel had not come yet.
        var waiting: [ObservedChildOperation] = []
        var running: [ObservedChildOperation] = []
        for child in children.sorted(by: { $0.serialNumber < $1.serialNumber }) {
            if child.hasBegun { running.append(child) } else { waiting.append(child) }
        }
        for child in waiting + running {
            child.cancel(reason: reason)
        }
    }
}
