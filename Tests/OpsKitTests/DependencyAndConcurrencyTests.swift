import Foundation
import Synchronization
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite(.ownThread) struct DependencyAndConcurrencyTests {
    @Test(arguments: [true, false])
    func dependentsNeverStartBeforeTheirDependenciesFinish(holding: Bool) {
        let queue = ObservableOperationQueue(holdsWaitingOperations: holding)
        queue.maxConcurrentOperationCount = 4
        let log = ExecutionLog()
        func make(_ name: String) -> ManualOperation {
            ManualOperation(name: name) { op in DispatchQueue.global().async { op.finish() } }
        }
        // A diamond a → (b, c) → d, then a chain d → e1 → … → e50.
        let a = make("a"), b = make("b"), c = make("c"), d = make("d")
        b.addDependency(a); c.addDependency(a); d.addDependency(b); d.addDependency(c)
        var chain: [ManualOperation] = [d]
        for index in 1...50 {
            let next = make("e\(index)")
            next.addDependency(chain[chain.count - 1])
            chain.append(next)
        }
        let all = [d, c, b, a] + chain.dropFirst()  // added in a scrambled order
        let tokens = all.map { watch($0, log) }
        queue.addOperations(all, waitUntilFinished: true)
        // The last finish can be logged a moment after `waitUntilFinished` returns (the
        // observer is told after the state is set).
        #expect(eventually { log.events.count == all.count * 2 })
        let events = log.events
        func index(_ event: String) -> Int { events.firstIndex(of: event) ?? -1 }
        for op in all {
            for dependency in op.dependencies {
                #expect(
                    index("finish \(dependency.name!)") < index("start \(op.name!)"),
                    "\(op.name!) after \(dependency.name!)")
            }
        }
        #expect(events.count == all.count * 2)
        _ = tokens
    }

    @Test func cancelDependentsPolicyCancelsWhileRunAnywayRuns() {
        let queue = ObservableOperationQueue()
        let failing = ManualOperation(name: "failing") {
            $0.finish(error: SimulatedTransferError(message: "boom", attempt: 1))
        }
        let cancelled = ManualOperation(name: "cancelled")
        let strict = ManualOperation(name: "strict") { _ in Issue.record("strict ran") }
        strict.dependencyPolicy = .cancelIfAnyDependencyFailed
        strict.addDependency(failing)
        let strictOnCancel = ManualOperation(name: "strict2") { _ in Issue.record("strict2 ran") }
        strictOnCancel.dependencyPolicy = .cancelIfAnyDependencyFailed
        strictOnCancel.addDependency(cancelled)
        let lenient = ManualOperation(name: "lenient") { $0.finish() }
        lenient.addDependency(failing)
        cancelled.cancel()
        queue.addOperations([failing, cancelled, strict, strictOnCancel, lenient], waitUntilFinished: true)
        #expect(strict.outcome?.description == "cancelled: dependency failing did not succeed")
        #expect(strictOnCancel.outcome?.isCancelled == true)
        #expect(lenient.outcome?.isSucceeded == true, "Foundation's default: run anyway")
    }

    @Test func executingNeverExceedsTheLimitEvenWhileItChanges() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 3
        let log = ExecutionLog()
        let ops = (0..<400).map { index in
            ManualOperation(name: "op\(index)") { op in DispatchQueue.global().async { op.finish() } }
        }
        let tokens = ops.map { watch($0, log) }
        queue.addOperations(ops, waitUntilFinished: false)
        for limit in [1, 5, 2, 6, 4] {
            let before = log.events.count
            queue.maxConcurrentOperationCount = limit
            // Some work runs at this limit (or everything already has).
            #expect(eventually { log.events.count > before + 1 || queue.allOperationCount == 0 })
        }
        queue.waitUntilAllOperationsAreFinished()
        // Lowering the limit never stops running work, so the bound is the largest limit set.
        #expect(log.peak <= 6)
        #expect(log.peak >= 1)
        _ = tokens
    }

    /// The limit is reached and never exceeded. Reaching it is made deterministic: the first
    /// operations don't finish until three run at once (so the queue must start a third while
    /// two are running), which a queue that under-uses its limit never gets to.
    @Test func fixedLimitIsReachedAndNeverExceeded() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 3
        let log = ExecutionLog()
        let gate = FinishGate(opensAt: 3)
        let ops = (0..<300).map { index in
            ManualOperation(name: "op\(index)") { op in
                for ready in gate.started(op) { DispatchQueue.global().async { ready.finish() } }
            }
        }
        let tokens = ops.map { watch($0, log, limit: { 3 }) }
        queue.addOperations(ops, waitUntilFinished: false)
        #expect(eventually(timeout: .seconds(30)) { gate.isOpen }, "three never ran at once")
        for parked in gate.open() { parked.finish() }  // (only if it never opened: lets the queue drain)
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.violations == [])
        #expect(log.peak == 3)
        #expect(ops.allSatisfy { $0.outcome?.isSucceeded == true })
        _ = tokens
    }

    @Test func suspendStopsNewStartsAndResumeRestartsThem() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 2
        let log = ExecutionLog()
        let gate = DispatchSemaphore(value: 0)
        let ops = (0..<6).map { index in
            ManualOperation(name: "op\(index)") { op in
                DispatchQueue.global().async {
                    gate.wait()
                    op.finish()
                }
            }
        }
        let tokens = ops.map { watch($0, log) }
        let twoRunning = DispatchSemaphore(value: 0)
        let counter = Atomic<Int>(0)
        let startWatch = ops.map { op in
            op.observe(\.isExecuting, options: [.new]) { _, c in
                if c.newValue == true, counter.add(1, ordering: .relaxed).newValue == 2 { twoRunning.signal() }
            }
        }
        queue.addOperations(ops, waitUntilFinished: false)
        #expect(waitFor(twoRunning))
        queue.isSuspended = true
        gate.signal(); gate.signal()  // the two running ones finish while suspended
        #expect(eventually { log.events.filter { $0.hasPrefix("finish") }.count == 2 })
        #expect(log.events.filter { $0.hasPrefix("start") }.count == 2, "no new start while suspended")
        queue.isSuspended = false
        for _ in 0..<4 { gate.signal() }
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.events.filter { $0.hasPrefix("start") }.count == 6)
        _ = (tokens, startWatch)
    }
}

/// Holds back the finish of the operations that start until `opensAt` of them have started
/// (none of them finishes before, so that many run at once); every later one finishes at once.
final class FinishGate: Sendable {
    private struct State {
        var started = 0
        var isOpen = false
        var parked: [ManualOperation] = []
    }
    private let state = OpsMutex(State())
    private let opensAt: Int

    init(opensAt: Int) {
        self.opensAt = opensAt
    }

    /// Whether `opensAt` operations ran at once.
    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Records that `op` started; returns the operations that may finish now.
    func started(_ op: ManualOperation) -> [ManualOperation] {
        state.withLock { state in
            state.started += 1
            if state.isOpen { return [op] }
            state.parked.append(op)
            guard state.started >= opensAt else { return [] }
            state.isOpen = true
            defer { state.parked = [] }
            return state.parked
        }
    }

    /// Opens the gate; returns the operations still parked.
    func open() -> [ManualOperation] {
        state.withLock { state in
            state.isOpen = true
            defer { state.parked = [] }
            return state.parked
        }
    }
}
