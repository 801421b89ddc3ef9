import Foundation
import Synchronization

/// One child of an observed task group: the queue operation whose row the dashboard shows. When
/// the queue starts it, it runs the child's body in a Swift `Task`, and finishes when the body
/// returns or throws; cancelling it cancels that `Task`.
final class ObservedChildOperation: AsyncOperation, ProgressReportingOperation, @unchecked Sendable {
    // Locking: `run` is a Mutex; `work` and `skip` are constants set in init.
    let kind: OperationKind
    let progressStorage: ProgressStorage

    /// Runs the body, finishes this operation and hands the result to the group.
    private let work: @Sendable (ObservedChildOperation) async -> Void
    /// Hands the group a `CancellationError`: the operation was cancelled before its body began.
    private let skip: @Sendable (ObservedChildOperation) -> Void

    private struct Run {
        /// The body's `Task` was created (the group gets its result from there).
        var began = false
        /// Cancelled before the body began: the group got its `CancellationError` already.
        var skipped = false
        var task: Task<Void, Never>?
    }
    private let run = Mutex(Run())

    init(
        name: String, kind: OperationKind, unit: ProgressUnit,
        work: @escaping @Sendable (ObservedChildOperation) async -> Void,
        skip: @escaping @Sendable (ObservedChildOperation) -> Void
    ) {
        self.kind = kind
        self.progressStorage = ProgressStorage(unit: unit)
        self.work = work
        self.skip = skip
        super.init()
        self.name = name
        // Told at once on a cancel, queued or not: a paused queue may hold a cancelled child for
        // a long time, and the group must not wait for it.
        onCancel { [weak self] _ in self?.skipUnlessBegun() }
    }

    override func execute() {
        let task = run.withLock { run -> Task<Void, Never>? in
            guard !run.skipped else { return nil }
            run.began = true
            let task = Task { [self] in await work(self) }
            run.task = task
            return task
        }
        guard let task else {
            finish()  // cancelled just before the body would have begun: finishes as cancelled
            return
        }
        // A cancel that came before `task` was stored found none to cancel in `operationDidCancel`.
        if isCancelled { task.cancel() }
    }

    /// Whether the body's `Task` was created (the queue started this child).
    var hasBegun: Bool { run.withLock { $0.began } }

    override func operationDidCancel() {
        run.withLock { $0.task }?.cancel()
    }

    private func skipUnlessBegun() {
        let skipped = run.withLock { run -> Bool in
            guard !run.began, !run.skipped else { return false }
            run.skipped = true
            return true
        }
        if skipped { skip(self) }
    }
}
