import OpsKit
import OpsKitTesting
import OpsMonitor

/// Starts `ops` on a fresh queue watched by a recording monitor on `clock`; returns once every
/// one executes (nil if they did not within 10 s).
func running(_ ops: [AsyncOperation], clock: ManualClock) -> (ObservableOperationQueue, QueueMonitor)? {
    let queue = ObservableOperationQueue()
    let monitor = QueueMonitor(queue: queue, clock: clock, recordEvents: true)
    queue.addOperations(ops, waitUntilFinished: false)
    guard eventually(timeout: .seconds(10), { monitor.snapshot().counts.executing == ops.count }) else {
        return nil
    }
    return (queue, monitor)
}
