import Foundation
import Testing

@testable import OpsKit

/// An `AsyncOperation` holds the queue it was added to only until it finishes (strongly: a weak
/// reference would give the queue a side table and slow every retain of it), so a finished
/// operation the app keeps does not keep its queue alive.
@Suite struct QueueReferenceTests {
    /// A queue that signals when it is freed.
    final class FreedQueue: ObservableOperationQueue, @unchecked Sendable {
        let freed: DispatchSemaphore

        init(freed: DispatchSemaphore) {
            self.freed = freed
            super.init()
        }

        deinit { freed.signal() }
    }

    @Test func aFinishedOperationTheAppKeepsLetsItsQueueGo() {
        let freed = DispatchSemaphore(value: 0)
        var kept: [ClosureOperation] = []
        do {
            let queue = FreedQueue(freed: freed)
            kept = (0..<4).map { _ in ClosureOperation {} }
            queue.addOperations(kept, waitUntilFinished: true)
            let finished = kept.filter { $0.isFinished }.count
            #expect(finished == 4)
            let holding = kept.filter { $0.locked.withLock { $0.queue != nil } }.count
            #expect(holding == 0, "finished operations still hold their queue")
        }
        // The worker that published the last finish may still be returning from that call,
        // which holds the queue: the queue is freed once it has.
        #expect(freed.wait(timeout: .now() + 30) == .success, "the queue was not freed")
        #expect(kept.count == 4)
    }

    @Test func anUnfinishedOperationCannotJoinASecondQueue() {
        let first = ObservableOperationQueue()
        first.isSuspended = true
        let op = ClosureOperation {}
        first.addOperation(op)
        let joined = op.attach(to: ObservableOperationQueue(), ticket: 99)
        #expect(!joined, "it is in the first queue's books")
        first.isSuspended = false
        first.waitUntilAllOperationsAreFinished()
        let finished = op.isFinished
        #expect(finished)
    }
}
