import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite struct CancelWhileStartingTests {
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
}
