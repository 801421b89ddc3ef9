import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite struct HeldOperationTests {
    @Test func aLongChainDrainsInOrderWhileHeldOutsideFoundation() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        let log = ExecutionLog()
        var ops: [ManualOperation] = []
        for index in 0..<2_000 {
            let op = ManualOperation(name: "c\(index)") { $0.finish() }
            if let previous = ops.last { op.addDependency(previous) }
            ops.append(op)
        }
        let tokens = ops.map { watch($0, log) }
        queue.isSuspended = true
        queue.addOperations(ops, waitUntilFinished: false)
        #expect(queue.heldOperationCount == 1_999)
        #expect(queue.allOperationCount == 2_000)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.events == ops.flatMap { ["start \($0.name!)", "finish \($0.name!)"] })
        #expect(queue.heldOperationCount == 0)
        _ = tokens
    }

    /// One operation with thousands of dependents: the queue watches it once, and releases its
    /// dependents together when it finishes (one per dependent, each handed to Foundation
    /// alone, took 45 s for 20,000: a scheduling pass each).
    @Test func manyDependentsOfOneOperationAreWatchedOnceAndReleasedTogether() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        let gate = ManualOperation(name: "gate")
        let dependents = (0..<5_000).map { index -> ManualOperation in
            let op = ManualOperation(name: "d\(index)") { $0.finish() }
            op.addDependency(gate)
            return op
        }
        let late = ManualOperation(name: "late") { $0.finish() }
        late.addDependency(gate)
        late.addDependency(dependents[0])
        queue.addOperations([gate] + dependents + [late], waitUntilFinished: false)
        #expect(eventually { gate.isExecuting })
        #expect(queue.heldOperationCount == 5_001)
        // Each dependent's own readiness listener (`addDependency`), and one of the queue's.
        #expect(gate.locked.withLock { $0.finishListeners.count } == 5_001 + 1, "the queue watches the gate once")
        gate.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(dependents.allSatisfy { $0.outcome?.isSucceeded == true })
        #expect(late.outcome?.isSucceeded == true)
        #expect(queue.heldOperationCount == 0)
    }

    @Test func cancelAllCancelsHeldOperationsAndTheyFinishAsCancelled() {
        let queue = ObservableOperationQueue()
        let blocker = ManualOperation(name: "blocker")
        let held = (0..<10).map { index -> ManualOperation in
            let op = ManualOperation(name: "h\(index)") { _ in Issue.record("held work ran") }
            op.addDependency(blocker)
            return op
        }
        queue.addOperations([blocker] + held, waitUntilFinished: false)
        #expect(eventually { blocker.isExecuting })
        #expect(queue.heldOperationCount == 10)
        queue.cancelAllOperations()
        #expect(held.allSatisfy { $0.isFinished && $0.outcome?.isCancelled == true }, "held ones finish at once")
        queue.waitUntilAllOperationsAreFinished()
        #expect(blocker.outcome?.isCancelled == true)
    }

    @Test func waitUntilAllFinishedWaitsForHeldOperations() {
        let queue = ObservableOperationQueue()
        let first = ManualOperation(name: "first") { op in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { op.finish() }
        }
        let second = ManualOperation(name: "second") { $0.finish() }
        second.addDependency(first)
        queue.addOperations([first, second], waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        #expect(second.isFinished)
    }

    @Test func aDependencyAddedWhileHeldIsRespected() {
        let queue = ObservableOperationQueue()
        let log = ExecutionLog()
        let a = ManualOperation(name: "a") { op in DispatchQueue.global().async { op.finish() } }
        let late = ManualOperation(name: "late")
        let b = ManualOperation(name: "b") { $0.finish() }
        b.addDependency(a)
        let tokens = [watch(a, log), watch(late, log), watch(b, log)]
        queue.isSuspended = true
        queue.addOperations([a, b], waitUntilFinished: false)
        b.addDependency(late)
        queue.addOperation(late)
        queue.isSuspended = false
        #expect(eventually { a.isFinished && late.isExecuting })
        #expect(!b.isExecuting && !b.isFinished, "b waits for the dependency added while it was held")
        late.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.events.firstIndex(of: "finish late")! < log.events.firstIndex(of: "start b")!)
        _ = tokens
    }

    @Test func barrierRunsAfterEarlierAndBeforeLaterOperations() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        let order = Recorder()
        for index in 0..<5 {
            queue.addOperation(
                ManualOperation(name: "early\(index)") { op in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
                        order.add("early"); op.finish()
                    }
                })
        }
        queue.addBarrierBlock { order.add("barrier") }
        for _ in 0..<5 { queue.addOperation { order.add("late") } }
        queue.waitUntilAllOperationsAreFinished()
        #expect(order.all == Array(repeating: "early", count: 5) + ["barrier"] + Array(repeating: "late", count: 5))
    }

    @Test func blocksAndWaitingAddsAreSeen() {
        let queue = ObservableOperationQueue()
        let counts = Recorder()
        let token = queue.observe(\.allOperationCount, options: [.new]) { _, c in counts.add("\(c.newValue ?? -1)") }
        let ran = Recorder()
        queue.addOperation { ran.add("block") }
        queue.waitUntilAllOperationsAreFinished()
        queue.addOperations([ManualOperation(name: "w") { $0.finish() }], waitUntilFinished: true)
        #expect(ran.all == ["block"])
        #expect(counts.all == ["1", "0", "1", "0"])
        _ = token
    }
}
