import Foundation
import OpsKitTesting
import Testing
@testable import OpsKit

/// Records what an `ObservableOperationQueue` tells its lifecycle listener.
private final class RecordingListener: OperationLifecycleListener {
    let log: Recorder
    init(_ log: Recorder) { self.log = log }

    func operationsAdded(_ operations: [Operation]) {
        log.add("listener added \(operations.compactMap(\.name).joined())")
    }
    func operationStarted(_ operation: Operation) { log.add("listener start \(operation.name ?? "")") }
    func operationFinished(_ operation: Operation) { log.add("listener end \(operation.name ?? "")") }
}

/// Records the tickets an `ObservableOperationQueue` names operations by.
private final class TicketListener: TicketedLifecycleListener {
    let log: Recorder
    init(_ log: Recorder) { self.log = log }

    func operationsAdded(_ operations: [Operation], tickets: [UInt64]) {
        for (op, ticket) in zip(operations, tickets) { log.add("added \(op.name ?? "") \(ticket)") }
    }
    func operationStarted(_ operation: Operation, ticket: UInt64) { log.add("start \(operation.name ?? "") \(ticket)") }
    func operationFinished(_ operation: Operation, ticket: UInt64) { log.add("end \(operation.name ?? "") \(ticket)") }
}

@Suite(.ownThread) struct OperationLifecycleListenerTests {
    /// Each operation keeps the ticket it was added with at its start and finish (what a
    /// monitor's table by ticket relies on); tickets grow by one per operation taken, and the
    /// queue's `allOperationsWithTickets` names the same ones.
    @Test func aTicketedListenerIsToldEachOperationsTicketAtItsAddStartAndFinish() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let log = Recorder()
        let listener = TicketListener(log)
        queue.addLifecycleListener(listener)
        let a = ClosureOperation(name: "a") {}
        let b = ClosureOperation(name: "b") {}
        let c = ClosureOperation(name: "c") {}
        b.addDependency(a)
        queue.addOperations([a, b], waitUntilFinished: false)
        queue.addOperation(c)
        #expect(
            queue.allOperationsWithTickets.map { "\($0.operation.name ?? "") \($0.ticket)" } == ["a 1", "b 2", "c 3"])
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        #expect(eventually { log.all.count == 9 })
        let byOperation = Dictionary(grouping: log.all) { $0.split(separator: " ")[1] }
        #expect(byOperation["a"] == ["added a 1", "start a 1", "end a 1"])
        #expect(byOperation["b"] == ["added b 2", "start b 2", "end b 2"])
        #expect(byOperation["c"] == ["added c 3", "start c 3", "end c 3"])
        queue.removeLifecycleListener(listener)
        queue.addOperations([ClosureOperation(name: "d") {}], waitUntilFinished: true)
        #expect(eventually { queue.allOperationCount == 0 })
        #expect(log.all.count == 9, "a removed ticketed listener is told nothing more")
    }

    @Test func everyAddStartAndFinishIsToldJustBeforeItsNotification() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let log = Recorder()
        let listener = RecordingListener(log)
        queue.addLifecycleListener(listener)
        #if !canImport(ObjectiveC)
        let executing = queue.observe(\.executingOperations, options: [.new]) { _, change in
            if change.kind == .insertion { log.add("kvo start \(change.newValue?.compactMap(\.name).joined() ?? "")") }
        }
        let operations = queue.observe(\.allOperations, options: [.new, .old]) { _, change in
            let names = (change.kind == .insertion ? change.newValue : change.oldValue)?.compactMap(\.name) ?? []
            log.add("kvo \(change.kind == .insertion ? "added" : "end") \(names.joined())")
        }
        #endif
        let first = ClosureOperation(name: "a") {}
        let second = ClosureOperation(name: "b") {}
        second.addDependency(first)
        queue.addOperations([first, second], waitUntilFinished: true)
        // The count reaches 0 before the finish is told: wait for the last line, bounded.
        #if !canImport(ObjectiveC)
        #expect(eventually { log.all.count == 10 })
        #expect(
            log.all == [
                "listener added ab", "kvo added ab", "listener start a", "kvo start a", "listener end a", "kvo end a",
                "listener start b", "kvo start b", "listener end b", "kvo end b",
            ])
        executing.invalidate()
        operations.invalidate()
        #else
        #expect(
            log.all == [
                "listener added ab", "listener start a", "listener end a", "listener start b", "listener end b",
            ])
        #endif
    }

    @Test func aRemovedListenerIsToldNothingMore() {
        let queue = ObservableOperationQueue()
        let log = Recorder()
        let listener = RecordingListener(log)
        queue.addLifecycleListener(listener)
        queue.addOperations([ClosureOperation(name: "a") {}], waitUntilFinished: true)
        #expect(eventually { log.all.count == 3 })
        queue.removeLifecycleListener(listener)
        let b = ClosureOperation(name: "b") {}
        queue.addOperations([b], waitUntilFinished: true)
        // The queue is done with "b" once its count is published as 0 (after the finish call).
        #expect(eventually { queue.allOperationCount == 0 })
        queue.waitUntilAllOperationsAreFinished()
        #expect(log.all == ["listener added a", "listener start a", "listener end a"])
    }

    /// Listeners come and go while worker threads read the list (readers take no lock and
    /// retain nothing): the one that stays is told of every finish, and one removed is told
    /// nothing more. Under ThreadSanitizer (.ci/run) this also checks the publication order.
    @Test func listenersAddedAndRemovedWhileOperationsRunAreSafe() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 4
        let steady = Recorder()
        queue.addLifecycleListener(RecordingListener(steady))
        let operations = (0..<2_000).map { ClosureOperation(name: "\($0)") {} }
        let churned = Recorder()
        let churn = Thread {
            for _ in 0..<200 {
                let passing = RecordingListener(churned)
                queue.addLifecycleListener(passing)
                queue.removeLifecycleListener(passing)
            }
        }
        churn.start()
        queue.addOperations(operations, waitUntilFinished: true)
        #expect(eventually { steady.all.filter { $0.hasPrefix("listener end ") }.count == 2_000 })
        #expect(eventually { churn.isFinished })
        let afterChurn = churned.all.count
        queue.addOperations([ClosureOperation(name: "late") {}], waitUntilFinished: true)
        #expect(eventually { steady.all.last == "listener end late" })
        #expect(churned.all.count == afterChurn, "a removed listener is told nothing more")
    }
}
