import Foundation
import OpsKit
import OpsMonitor

public enum QueueKind: String, Sendable, CaseIterable {
    case plain = "OperationQueue"
    case observable = "ObservableOperationQueue"
    case monitored = "ObservableOperationQueue + QueueMonitor"

    /// The kind named `plain`, `observable` or `monitored` (for `Ratios --profile-queue=`).
    public static func profileName(_ name: String) -> QueueKind? {
        switch name {
        case "plain": .plain
        case "observable": .observable
        case "monitored": .monitored
        default: nil
        }
    }
}

public enum QueueBench {
    /// Seconds to push `count` small async operations (ClosureOperation, empty block) through
    /// a queue of `kind` and drain it. Operations, queue and monitor are made before timing.
    public static func run(_ kind: QueueKind, count: Int) -> Double {
        runWithCatchUp(kind, count: count).drained
    }

    /// Like `run`; also returns the seconds until the monitor's snapshot held every finish
    /// (drained + the monitor applying what it had not yet; equal to `drained` without one).
    public static func runWithCatchUp(_ kind: QueueKind, count: Int) -> (drained: Double, caughtUp: Double) {
        let run = runMeasured(kind, count: count)
        return (run.drained, run.caughtUp)
    }

    /// Like `runWithCatchUp`; also returns the process's CPU seconds (every thread: the
    /// queue's workers, the monitor's applier, the caller) from the add until the monitor caught up.
    public static func runMeasured(_ kind: QueueKind, count: Int) -> (drained: Double, caughtUp: Double, cpu: Double) {
        let operations: [Operation] = (0..<count).map { _ in ClosureOperation {} }
        let queue: OperationQueue
        var monitor: QueueMonitor?
        switch kind {
        case .plain:
            queue = OperationQueue()
        case .observable:
            queue = ObservableOperationQueue()
        case .monitored:
            let observable = ObservableOperationQueue()
            monitor = QueueMonitor(queue: observable, clock: LiveClock())
            queue = observable
        }
        var drained = 0.0
        let cpuBefore = processCPUSeconds()
        let caughtUp = time {
            drained = time {
                queue.addOperations(operations, waitUntilFinished: false)
                queue.waitUntilAllOperationsAreFinished()
            }
            if let monitor {
                let snapshot = monitor.snapshot()
                // Counts cover every operation seen, evicted ones included.
                precondition(snapshot.counts.succeeded == count, "monitor saw \(snapshot.counts.succeeded) of \(count)")
            }
        }
        let cpu = processCPUSeconds() - cpuBefore
        monitor?.stop()
        return (drained, caughtUp, cpu)
    }
}
