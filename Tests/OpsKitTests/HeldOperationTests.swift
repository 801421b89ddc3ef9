import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite(.ownThread) struct HeldOperationTests {
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

    /// A failure cancels the dependents that cancel on a failed dependency as soon as it happens,
    /// down a chain 20,000 long (no recursion), without waiting for a free slot; a dependent
    /// that runs anyway waits for its slot as usual.
    static let chainLength = 20_000

    @Test func aFailureCancelsItsDependentsDownTheChainAtOnce() throws {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let blocker = ManualOperation(name: "blocker")
        queue.addOperation(blocker)
        #expect(eventually { blocker.isExecuting })
        // The head fails outside the queue; the queue's only slot stays taken meanwhile.
        let head = ManualOperation(name: "head")
        var chain: [ManualOperation] = []
        for index in 0..<Self.chainLength {
            let op = ManualOperation(name: "c\(index)") { _ in Issue.record("cancelled work ran") }
            op.dependencyPolicy = .cancelIfAnyDependencyFailed
            op.addDependency(chain.last ?? head)
            chain.append(op)
        }
        let runsAnyway = ManualOperation(name: "anyway") { $0.finish() }
        runsAnyway.addDependency(head)
        queue.addOperations(chain + [runsAnyway], waitUntilFinished: false)
        #expect(queue.heldOperationCount == Self.chainLength + 1)
        head.start()
        head.finish(error: CocoaError(.fileNoSuchFile))
        #expect(chain.allSatisfy { $0.outcome?.isCancelled == true }, "finished at once, the slot still taken")
        #expect(chain[0].outcome?.description == "cancelled: dependency head did not succeed")
        #expect(chain[1].outcome?.description == "cancelled: dependency c0 did not succeed")
        #expect(!runsAnyway.isFinished, "runs once the slot frees")
        blocker.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(runsAnyway.outcome?.isSucceeded == true)
        #expect(queue.heldOperationCount == 0)
    }

    /// A running operation cancelled by the operator: its thousands of dependents that cancel
    /// on a failed dependency all finish as cancelled at once.
    @Test func cancellingARunningOperationCancelsItsManyDependents() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        let root = ManualOperation(name: "root") { _ in }
        let dependents = (0..<5_000).map { index -> ManualOperation in
            let op = ManualOperation(name: "d\(index)") { _ in Issue.record("cancelled work ran") }
            op.dependencyPolicy = .cancelIfAnyDependencyFailed
            op.addDependency(root)
            return op
        }
        queue.addOperations([root] + dependents, waitUntilFinished: false)
        #expect(eventually { root.isExecuting })
        root.cancel(reason: "cancelled by operator")
        root.finish()
        queue.waitUntilAllOperationsAreFinished()
        #expect(dependents.allSatisfy { $0.outcome?.isCancelled == true })
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

/// Freeing the end of a long chain frees the chain without recursion (Foundation's deinit
/// releasing each dependency inside the previous one's overflowed the stack at ~50,000).
@Suite(.ownThread) struct LongChainReleaseTests {
    @Test func aChainOfAHundredThousandIsFreedWithoutOverflowingTheStack() {
        weak var head: ClosureOperation?
        do {
            var last = ClosureOperation {}
            head = last
            for _ in 1..<100_000 {
                let next = ClosureOperation {}
                next.addDependency(last)
                last = next
            }
            // `last` holds the whole chain; it is released here, at the end of the scope.
        }
        #expect(eventually(timeout: .seconds(30)) { head == nil }, "the chain was freed")
    }
}
