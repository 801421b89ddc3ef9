import CMallocStats
import Foundation
import OpsKit
import OpsMonitor

public enum MemoryBench {
    /// Bytes currently allocated through malloc (glibc mallinfo2().uordblks).
    public static func allocatedBytes() -> Int {
        Int(opsdash_malloc_allocated_bytes())
    }

    /// Monitor bytes per tracked operation: a suspended ObservableOperationQueue holding `count`
    /// operations, measured before and after a QueueMonitor attaches and tracks them all
    /// (store entry + KVO subscriptions + bookkeeping).
    public static func monitorBytesPerOperation(count: Int) -> Double {
        let queue = ObservableOperationQueue()
        queue.isSuspended = true
        let operations = (0..<count).map { _ in ClosureOperation {} }
        queue.addOperations(operations, waitUntilFinished: false)
        let before = allocatedBytes()
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        let after = allocatedBytes()
        precondition(monitor.subscribedOperationCount == count)
        monitor.stop()
        queue.cancelAllOperations()
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        return Double(after - before) / Double(count)
    }

    /// MonitorStore bytes per operation: `count` operations added (ready) to a store.
    public static func storeBytesPerOperation(count: Int) -> Double {
        let before = allocatedBytes()
        var store = MonitorStore()
        for _ in 0..<count {
            _ = store.add(name: nil, kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
        }
        let after = allocatedBytes()
        keepAlive(store)
        return Double(after - before) / Double(count)
    }

    /// Peak extra bytes while `count` operations go added → executing → finished through a store
    /// with default (bounded) limits, sampled every 10,000 operations.
    public static func boundedRunPeakBytes(count: Int) -> (peak: Int, final: Int) {
        let before = allocatedBytes()
        var store = MonitorStore()
        var peak = 0
        for index in 0..<count {
            let id = store.add(name: nil, kind: .other, lifecycle: .ready, totalBytes: 0, dependencies: [], time: .zero)
            store.transition(id, to: .executing, time: .milliseconds(index))
            store.transition(id, to: .finished, outcome: .succeeded, time: .milliseconds(index + 1))
            if index % 10_000 == 0 { peak = max(peak, allocatedBytes() - before) }
        }
        let final = allocatedBytes() - before
        keepAlive(store)
        return (max(peak, final), final)
    }
}
