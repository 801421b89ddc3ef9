import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite(.ownThread) struct CancelWhileStartingTests {
    /// A cancel that lands while `start()` moves the operation to executing (pinned here with a
    /// `.prior` observer of `isExecuting`, which runs in that gap) still finishes it as cancelled,
    /// with `operationDidCancel()` once and without running the work.
    @Test func cancelDuringTheMoveToExecutingFinishesTheOperation() {
        let queue = ObservableOperationQueue()
        let op = ManualOperation(name: "late cancel") { _ in Issue.record("the work ran after cancel") }
        let cancelInGap = op.observe(\.isExecuting, options: [.prior]) { op, change in
            if change.isPrior, op.state == .ready { op.cancel(reason: "in the gap") }
        }
        queue.addOperation(op)
        #expect(eventually(timeout: .seconds(10)) { op.isFinished }, "never finished: stuck executing")
        #expect(op.outcome?.description == "cancelled: in the gap")
        #expect(op.cancelHooks.load(ordering: .relaxed) == 1)
        queue.cancelAllOperations()  // (only if it never finished: lets the test end)
        _ = cancelInGap
    }

    /// A cancel that lands once the state reads executing but before `start()` runs the work
    /// (pinned with an observer of `isExecuting`, which runs in that gap) is handled by
    /// `cancel`: `operationDidCancel()` once, finished as cancelled, and the work never runs.
    @Test func cancelOnceExecutingButBeforeTheWorkRunsNeverRunsTheWork() {
        let queue = ObservableOperationQueue()
        let op = ManualOperation(name: "cancel before work") { _ in Issue.record("the work ran after cancel") }
        let cancelInGap = op.observe(\.isExecuting, options: [.new]) { op, change in
            if change.newValue == true { op.cancel(reason: "before the work") }
        }
        queue.addOperation(op)
        #expect(eventually(timeout: .seconds(10)) { op.isFinished }, "never finished: stuck executing")
        #expect(op.outcome?.description == "cancelled: before the work")
        #expect(op.cancelHooks.load(ordering: .relaxed) == 1)
        queue.cancelAllOperations()
        _ = cancelInGap
    }
}

@Suite(.ownThread) struct ConcurrentFinishTests {
    /// A finish from another thread while the first finish is still being published (pinned with
    /// a `.prior` observer of `isFinished`, which runs in that window and waits for the second
    /// finish to return) is a quiet no-op, not an illegal transition.
    @Test func aSecondFinishWhileTheFirstIsPublishedIsNotIllegal() {
        let queue = ObservableOperationQueue()
        let op = ManualOperation(name: "finished twice at once") { op in op.finish() }
        let secondReturned = DispatchSemaphore(value: 0)
        let racing = op.observe(\.isFinished, options: [.prior]) { op, change in
            guard change.isPrior else { return }
            DispatchQueue.global().async {
                op.finish(error: SimulatedTransferError(message: "second", attempt: 1))
                secondReturned.signal()
            }
            #expect(secondReturned.wait(timeout: .now() + 10) == .success, "the second finish blocked")
        }
        let illegal = recordingIllegalTransitions {
            queue.addOperation(op)
            queue.waitUntilAllOperationsAreFinished()
        }.filter { $0.contains("(finished twice at once)") }
        #expect(illegal == [])
        #expect(op.outcome?.isSucceeded == true, "the first finish wins")
        _ = racing
    }
}

@Suite(.ownThread) struct FreedDependentTests {
    /// An operation cancelled and released while its dependency (in another, plain queue) has
    /// not finished yet: when the dependency finishes, Foundation on Linux must not touch the
    /// freed operation (it crashed with a bad pointer dereference).
    @Test func aDependentFreedBeforeItsDependencyFinishesIsForgotten() {
        let plain = OperationQueue()
        plain.isSuspended = true
        let dependency = BlockOperation {}
        plain.addOperation(dependency)
        let queue = ObservableOperationQueue()
        weak var released: ManualOperation?
        do {
            let dependent = ManualOperation(name: "freed early") { _ in Issue.record("ran without its dependency") }
            dependent.addDependency(dependency)
            queue.addOperation(dependent)
            dependent.cancel()
            #expect(eventually(timeout: .seconds(10)) { dependent.isFinished })
            queue.waitUntilAllOperationsAreFinished()
            released = dependent
        }
        #expect(eventually(timeout: .seconds(10)) { released == nil }, "the dependent was not freed")
        plain.isSuspended = false
        plain.waitUntilAllOperationsAreFinished()  // crashed here
        #expect(dependency.isFinished)
    }
}
