import Foundation
import OpsKitTesting
import Testing

@testable import OpsKit

/// A cancelled task group cancels its waiting children before its running ones: a running
/// child's cancel frees its queue slot, and the queue could otherwise start a waiting child
/// whose cancel had not come yet. Synchronous on purpose: whether a child has begun is decided
/// on the queue's thread (its `Task` is created there), so no wait here needs the cooperative
/// pool, which other tests of a full parallel run can hold for a long time.
@Suite(.ownThread) struct TaskGroupCancelOrderTests {
    @Test func aCancelReachesWaitingChildrenBeforeRunningOnes() {
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = 1
        let core = ObservedTaskGroupCore<Int>(queue: queue)
        for index in 0..<2 {
            core.add(name: "child-\(index)", kind: .process, unit: .items) { _ in
                while !Task.isCancelled { await Task.yield() }
                throw CancellationError()
            }
        }
        let children = queue.operations.compactMap { $0 as? ObservedChildOperation }
        #expect(children.count == 2)
        #expect(eventually(timeout: .seconds(60)) { children.first?.hasBegun == true })
        let order = OpsMutex<[String]>([])
        for child in children {
            child.onCancel { operation in order.withLock { $0.append(operation.name ?? "?") } }
        }
        core.cancelAll(reason: "test")
        #expect(order.withLock { $0 } == ["child-1", "child-0"], "the waiting child first")
        #expect(children.last?.hasBegun == false, "the waiting child never began")
    }
}
