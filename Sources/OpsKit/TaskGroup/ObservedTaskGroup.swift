/// Runs `body` with a task group whose children run as operations on `queue`, so that the
/// queue's `maxConcurrentOperationCount` limits how many run at once and a `QueueMonitor` (the
/// dashboard, `opsdash attach`, recordings, metrics) shows each child as a row.
///
/// It works like `withThrowingTaskGroup`: `body` adds children with
/// `addTask(name:kind:unit:operation:)` and reads their results with `next()`, `nextResult()`
/// or `for try await`; when `body` returns, the remaining children are awaited and their results
/// dropped; when `body` throws, they are cancelled, awaited, and the error is rethrown.
/// Cancelling the calling task cancels every child. The dashboard's controls act on the queue:
/// cancel ends one child (its `Task` is cancelled), pause (`isSuspended`) holds children that
/// have not started, and a new limit applies to the next start.
///
/// ```swift
/// let queue = ObservableOperationQueue()
/// queue.maxConcurrentOperationCount = 4          // the width the group lacks
/// let monitor = QueueMonitor(queue: queue)       // publish it for `opsdash attach` as usual
/// let sizes = try await withObservedTaskGroup(of: Int.self, on: queue) { group in
///     for file in files {
///         group.addTask(name: "resize \(file)") { progress in
///             try await resize(file, onTile: { progress.report(completed: $0, total: 64) })
///         }
///     }
///     return try await group.reduce(0, +)
/// }
/// ```
///
/// Only children added here are visible: the runtime has no list of tasks to read on Linux,
/// and tasks a child starts itself are part of its row, not rows of their own.
public func withObservedTaskGroup<ChildResult: Sendable, GroupResult>(
    of childResultType: ChildResult.Type = ChildResult.self,
    returning returnType: GroupResult.Type = GroupResult.self,
    on queue: ObservableOperationQueue,
    isolation: isolated (any Actor)? = #isolation,
    body: (inout ObservedTaskGroup<ChildResult>) async throws -> GroupResult
) async throws -> GroupResult {
    let core = ObservedTaskGroupCore<ChildResult>(queue: queue)
    var group = ObservedTaskGroup(core: core)
    return try await withTaskCancellationHandler {
        let result: GroupResult
        do {
            result = try await body(&group)
        } catch {
            core.cancelAll(reason: "task group ended with an error")
            await core.drain()
            throw error
        }
        await core.drain()
        return result
    } onCancel: {
        core.cancelAll(reason: "parent task cancelled")
    }
}

/// A task group whose children run as operations on an `ObservableOperationQueue`; see
/// `withObservedTaskGroup(of:returning:on:isolation:body:)`. Use it only inside that call's body.
public struct ObservedTaskGroup<ChildResult: Sendable> {
    let core: ObservedTaskGroupCore<ChildResult>

    /// Adds a child: an operation named `name` that, when the queue starts it, runs `operation`
    /// in a new `Task`. `operation` reports its progress through the handle it is given (in
    /// `unit`s; `kind` is the dashboard's kind column). In a cancelled group the child is
    /// cancelled at once: it never runs and its result is `CancellationError`.
    public mutating func addTask(
        name: String, kind: OperationKind = .process, unit: ProgressUnit = .items,
        operation: @escaping @Sendable (ObservedTaskProgress) async throws -> ChildResult
    ) {
        core.add(name: name, kind: kind, unit: unit, body: operation)
    }

    /// The next child's result, in the order children end; rethrows the child's error. Nil
    /// once every child's result was read. A child cancelled before it began ends with
    /// `CancellationError`.
    public mutating func next(isolation: isolated (any Actor)? = #isolation) async throws -> ChildResult? {
        try await core.next()?.get()
    }

    /// The next child's result or error, in the order children end; nil once every child's
    /// result was read. Carries on past a failed or cancelled child, where `next()` throws.
    public mutating func nextResult(
        isolation: isolated (any Actor)? = #isolation
    ) async -> Result<ChildResult, any Error>? {
        await core.next()
    }

    /// Waits for every child; throws the first error a child ended with, after all ended.
    public mutating func waitForAll(isolation: isolated (any Actor)? = #isolation) async throws {
        var firstError: (any Error)?
        while let outcome = await core.next() {
            if case .failure(let error) = outcome, firstError == nil { firstError = error }
        }
        if let firstError { throw firstError }
    }

    /// Cancels every child not ended yet, and every child added later.
    public func cancelAll() {
        core.cancelAll(reason: "task group cancelled")
    }

    /// Whether the group was cancelled (`cancelAll()`, the calling task cancelled, or `body`
    /// threw).
    public var isCancelled: Bool { core.isCancelled }

    /// Whether every child's result was read.
    public var isEmpty: Bool { core.isEmpty }
}

extension ObservedTaskGroup: AsyncSequence {
    /// A child's result.
    public typealias Element = ChildResult

    /// Reads the children's results in the order they end; throws a child's error.
    public struct Iterator: AsyncIteratorProtocol {
        let core: ObservedTaskGroupCore<ChildResult>

        /// The next child's result; nil once every child's result was read.
        public mutating func next() async throws -> ChildResult? {
            try await core.next()?.get()
        }

        /// The next child's result, read without leaving the caller's actor (what `for try await`
        /// calls); nil once every child's result was read.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> ChildResult? {
            try await core.next()?.get()
        }
    }

    /// An iterator over the children's results.
    public func makeAsyncIterator() -> Iterator {
        Iterator(core: core)
    }
}
