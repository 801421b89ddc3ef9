import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

@Suite(.ownThread) struct QueueBookkeepingTests {
    @Test func unfinishedOperationsKeepAddOrderAcrossHolesAndCompaction() {
        var books = UnfinishedOperations()
        let ops = (0..<5_000).map { _ in ClosureOperation {} }
        let tickets = ops.map { books.append($0) }
        // Remove every other one, then the whole first half: compaction runs on the way.
        for index in stride(from: 1, to: ops.count, by: 2) {
            let removed = books.remove(ticket: tickets[index], ops[index])
            #expect(removed)
        }
        for index in stride(from: 0, to: 2_500, by: 2) {
            let removed = books.remove(ticket: tickets[index], ops[index])
            #expect(removed)
        }
        let expected = stride(from: 2_500, to: 5_000, by: 2).map { ops[$0] }
        #expect(books.count == expected.count)
        #expect(books.all.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
        // A removed ticket, a wrong operation and a later append keep the books right.
        let removedTwice = books.remove(ticket: tickets[0], ops[0])
        let wrongOperation = books.remove(ticket: tickets[2_500], ops[2_502])
        #expect(!removedTwice && !wrongOperation)
        let late = ClosureOperation {}
        let lateTicket = books.append(late)
        #expect(books.all.last === late)
        let removed = books.remove(ticket: lateTicket, late)
        #expect(removed)
        for index in stride(from: 2_500, to: 5_000, by: 2) {
            let removed = books.remove(ticket: tickets[index], ops[index])
            #expect(removed)
        }
        #expect(books.count == 0 && books.all.isEmpty)
    }

    @Test func addOperationsPublishesOneInsertionAndOneCountChangeForTheBatch() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let first = ClosureOperation {}
        queue.addOperation(first)
        let changes = Recorder()
        let counts = queue.observe(\.operationCount, options: [.old, .new]) { _, change in
            changes.add("count \(change.oldValue ?? -1)→\(change.newValue ?? -1)")
        }
        let inserts = queue.observe(\.allOperations, options: [.new]) { _, change in
            guard change.kind == .insertion else { return }
            changes.add("insert \(change.newValue?.count ?? -1) at \(change.indexes.map(Array.init) ?? [])")
        }
        queue.addOperations((0..<3).map { _ in ClosureOperation {} }, waitUntilFinished: false)
        #expect(changes.all == ["count 1→4", "insert 3 at [1, 2, 3]"])
        #expect(queue.allOperationCount == 4)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(queue.allOperationCount == 0 && queue.allOperations.isEmpty)
        _ = (counts, inserts)
    }

    @Test func foreignOperationsAreBookedAndUnbookedInOrder() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let ops: [Operation] = [BlockOperation {}, ClosureOperation {}, BlockOperation {}]
        queue.addOperations(ops, waitUntilFinished: false)
        #expect(queue.allOperations.map(ObjectIdentifier.init) == ops.map(ObjectIdentifier.init))
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(queue.allOperationCount == 0 && queue.allOperations.isEmpty)
    }

    /// Foundation lets an app set a `completionBlock` after adding the operation, which replaces
    /// the one the queue wrapped to learn of the finish: the finish is still booked (by the
    /// queue's sweep), the app's block runs, and waiting for the queue returns.
    @Test func aCompletionBlockSetAfterAddingStillBooksTheFinish() {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let op = BlockOperation {}
        queue.addOperation(op)
        let completed = DispatchSemaphore(value: 0)
        op.completionBlock = { completed.signal() }
        let counts = Recorder()
        let token = queue.observe(\.operationCount, options: [.new]) { _, change in
            counts.add("\(change.newValue ?? -1)")
        }
        queue.isSuspended = false
        #expect(completed.wait(timeout: .now() + 10) == .success, "the app's completion block never ran")
        // The count drops under the queue's lock and is published just after: wait for the publication.
        #expect(eventually(timeout: .seconds(10)) { !counts.all.isEmpty }, "the finish was never booked")
        #expect(counts.all == ["0"], "operationCount was published once, as 0")
        #expect(queue.allOperationCount == 0)
        if queue.allOperationCount == 0 { queue.waitUntilAllOperationsAreFinished() }  // (hung before the sweep)
        _ = token
    }
}

@Suite(.ownThread) struct ExecutingOperationsTests {
    @Test func startsAndFinishesArePublishedBeforeFoundationMovesOn() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let changes = Recorder()
        let token = queue.observe(\.executingOperations, options: [.new, .old]) { _, change in
            let names = (change.kind == .insertion ? change.newValue : change.oldValue)?.compactMap(\.name) ?? []
            changes.add("\(change.kind == .insertion ? "start" : "end") \(names.joined())")
        }
        let first = ClosureOperation(name: "a") {}
        let second = ClosureOperation(name: "b") {}
        let third = ClosureOperation(name: "c") {}
        third.addDependency(second)
        queue.addOperations([first, second, third], waitUntilFinished: true)
        queue.waitUntilAllOperationsAreFinished()
        #expect(changes.all == ["start a", "end a", "start b", "end b", "start c", "end c"])
        #expect(queue.executingOperations.isEmpty)
        _ = token
    }

    @Test func executingOperationsListsRunningWork() {
        let queue = ObservableOperationQueue()
        let gate = DispatchSemaphore(value: 0)
        let running = ManualOperation(name: "running") { op in
            DispatchQueue.global().async {
                gate.wait()
                op.finish()
            }
        }
        let idle = ClosureOperation(name: "idle") {}
        idle.addDependency(running)
        queue.addOperations([running, idle], waitUntilFinished: false)
        #expect(eventually { running.isExecuting })
        #expect(queue.executingOperations.map(\.name) == ["running"])
        gate.signal()
        queue.waitUntilAllOperationsAreFinished()
        #expect(queue.executingOperations.isEmpty)
    }
}
