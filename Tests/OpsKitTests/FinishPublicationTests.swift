import Foundation
import OpsKitTesting
import Synchronization
import Testing
@testable import OpsKit

/// An operation whose work finishes on another thread while `start()` is returning, with the
/// interleaving pinned: `execute()` returns only once the other thread is inside the finish's
/// publication (an `isFinished` observer), and that observer holds the publication open until
/// Foundation's queue has read `isFinished` on the thread that ran `start()`.
final class PinnedFinishOperation: AsyncOperation, @unchecked Sendable {
    private struct Probe {
        var startThread: UInt?
        var executeReturned = false
        var readsAfterStart: [Bool] = []
    }
    private let probe = OpsMutex(Probe())
    /// Signalled by the observer once the finish is being published.
    let publishing = DispatchSemaphore(value: 0)
    /// Signalled once the start thread read `isFinished` after `execute()` returned.
    let checked = DispatchSemaphore(value: 0)

    /// What the reads of `isFinished` on the start thread after `execute()` returned saw.
    var readsAfterStart: [Bool] { probe.withLock { $0.readsAfterStart } }

    override func execute() {
        let thread = currentThreadID()
        probe.withLock { $0.startThread = thread }
        Thread { self.finish() }.start()  // not a pool thread: this one blocks below
        _ = waitFor(publishing, seconds: 10)
        probe.withLock { $0.executeReturned = true }
    }

    override func didReadIsFinished(_ value: Bool) {
        let thread = currentThreadID()
        let afterStart = probe.withLock { probe -> Bool in
            guard probe.executeReturned, probe.startThread == thread else { return false }
            probe.readsAfterStart.append(value)
            return true
        }
        if afterStart { checked.signal() }
    }
}

@Suite(.ownThread) struct FinishPublicationTests {
    @Test func queueLearnsOfAFinishOnlyAfterItsObserversAndTheQueueBooks() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let first = PinnedFinishOperation()
        first.name = "first"
        let second = ManualOperation(name: "second") { $0.finish() }
        let log = ExecutionLog()
        let order = OpsMutex<[String]>([])
        // Observed as an `AsyncOperation`, as a monitor does.
        let observed: AsyncOperation = first
        let hold = observed.observe(\.isFinished, options: [.new]) { _, change in
            guard change.newValue == true else { return }
            first.publishing.signal()
            // Foundation's check after `start()` happens while this finish is being published.
            #expect(waitFor(first.checked, seconds: 10), "the queue never read isFinished after start()")
            order.withLock { $0.append("first finish observed") }
        }
        let books = queue.observe(\.allOperations, options: [.old]) { _, change in
            guard change.kind == .removal, let ops = change.oldValue else { return }
            order.withLock { $0 += ops.map { "\($0.name ?? "?") left the books" } }
        }
        let started = second.observe(\.isExecuting, options: [.new]) { _, change in
            if change.newValue == true { order.withLock { $0.append("second started") } }
        }
        let tokens = [first, second].map { watch($0, log, limit: { 1 }) }
        queue.addOperations([first, second], waitUntilFinished: true)
        #expect(first.readsAfterStart == [false], "the check after start() must not see a finish being published")
        #expect(
            order.withLock { $0 }.prefix(3) == ["first finish observed", "first left the books", "second started"])
        #expect(log.violations == [])
        _ = (hold, books, started, tokens)
    }
}
