import Foundation
import OpsKitTesting
import OpsMonitor
import Testing

@testable import OpsDashApp

/// `C` while a large scenario is still being added cancels everything: the adding stops too, so
/// nothing added afterwards runs.
@Suite(.ownThread) struct CancelAllWhileAddingTests {
    @Test func cancellingAllStopsTheAdding() throws {
        let held = try HeadlessAddingTests.HeldRun()
        let run = held.run
        let source = LocalScenarioSource(run: run)
        run.startAdding()
        try #require(held.reachedSecondBatch.wait(timeout: .now() + 60) == .success)
        // The operator confirms `C` while the adding thread is inside the second batch; that
        // thread goes on once the adding was told to stop.
        Thread.detachNewThread {
            _ = eventually(timeout: .seconds(10)) { run.isAddingStopped }
            held.release.signal()
        }
        // The dashboard's thread does not wait for the cancelling.
        #expect(source.perform(.cancelAll) == nil)
        // The batch in hand was added whole, then cancelled with the rest; nothing more came.
        #expect(eventually(timeout: .seconds(30)) { run.notAddedCount == 3 * ScenarioRun.addBatch })
        // The cancelling runs on a thread of its own and may still be going through the first
        // batch when the adding thread is done: resumed before it ends, the operations it has
        // not reached yet would run (seen once in CI: 18 succeeded). So wait for it to end.
        #expect(eventually(timeout: .seconds(60)) { run.queue.allOperations.allSatisfy(\.isCancelled) })
        // Resumed, the cancelled operations finish as cancelled, none of them run.
        run.queue.isSuspended = false
        let allCancelled = eventually(timeout: .seconds(120)) {
            let counts = run.monitor.snapshot().counts
            return counts.finished == counts.total && counts.cancelled == counts.total
        }
        // Says what was left if it fails.
        #expect(
            allCancelled,
            "monitor \(run.monitor.snapshot().counts); queue holds \(run.queue.operationCount), suspended \(run.queue.isSuspended)"
        )
        #expect(run.monitor.snapshot().counts.total == 2 * ScenarioRun.addBatch)
        #expect(run.notAddedCount == 3 * ScenarioRun.addBatch)
    }
}
