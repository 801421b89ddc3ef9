import Foundation
import OpsKit
import OpsMonitor
import Synchronization

/// Item 9: what reading Foundation `Progress` costs the thread that reads the monitor.
///
/// `operations` operations run at once, each handing out a Foundation `Progress`
/// (`ProgressReporting`) that an app thread advances every `updateInterval`; a reader thread
/// reads the monitor every `readInterval` (the publisher's default pump, 10 ms; a dashboard's
/// 20 fps frames read every 50 ms), and the monitor reads every running operation's `Progress`
/// at most once per 50 ms of its clock (`LiveClock`). The baseline runs the same operations,
/// updater and reads with operations that hand out no `Progress` (the same `Progress` objects
/// are advanced, unread), so the difference is the sampling: reading each `Progress` and
/// applying the values that changed.
public enum ProgressSamplingBench {
    /// An operation whose work reports through a Foundation `Progress`; runs until finished.
    final class ReportingOperation: AsyncOperation, ProgressReporting, @unchecked Sendable {
        let progress: Progress
        init(_ progress: Progress) {
            self.progress = progress
            super.init()
        }
        override func execute() {}
    }

    /// The baseline's operation: runs until finished, no `Progress` to read.
    final class SilentOperation: AsyncOperation, @unchecked Sendable {
        override func execute() {}
    }

    /// How often the reader reads the monitor (the publisher's default pump interval).
    public static let readInterval = Duration.milliseconds(10)
    /// How often the app advances every `Progress`.
    public static let updateInterval = Duration.milliseconds(10)

    /// One run: the reader thread's CPU time over `duration` divided by `duration` (its share
    /// of a core), and how many operations' progress the monitor shows as moved at the end.
    public static func run(operations: Int, duration: Duration, sampled: Bool) -> (share: Double, moved: Int) {
        let progresses = (0..<operations).map { _ in Progress(totalUnitCount: 1_000_000) }
        let ops: [AsyncOperation] =
            sampled ? progresses.map { ReportingOperation($0) } : (0..<operations).map { _ in SilentOperation() }
        let queue = ObservableOperationQueue()
        queue.maxConcurrentOperationCount = operations
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        queue.addOperations(ops, waitUntilFinished: false)
        let deadline = ContinuousClock.now + .seconds(60)
        while ops.contains(where: { !$0.isExecuting }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let stop = Atomic<Bool>(false)
        let updater = Thread {
            var next = ContinuousClock.now
            while !stop.load(ordering: .relaxed) {
                for progress in progresses { progress.completedUnitCount += 1 }
                next += updateInterval
                sleep(until: next)
            }
        }
        updater.start()
        read(monitor, for: .milliseconds(200))  // warm-up: every operation sampled once
        let cpu = threadCPUTime { read(monitor, for: duration) }
        stop.store(true, ordering: .relaxed)
        let moved = monitor.snapshot().operations.reduce(0) { count, op in count + (op.completedUnits > 0 ? 1 : 0) }
        for op in ops { op.cancel() }
        queue.waitUntilAllOperationsAreFinished()
        monitor.stop()
        return (cpu / duration.seconds, moved)
    }

    /// Reads the monitor every `readInterval` for `duration` (each read applies what changed
    /// and, at most once per 50 ms, samples the running operations' `Progress`).
    static func read(_ monitor: QueueMonitor, for duration: Duration) {
        let end = ContinuousClock.now + duration
        var next = ContinuousClock.now
        while next < end {
            monitor.applyPendingChanges()
            next += readInterval
            sleep(until: next)
        }
    }

    static func sleep(until instant: ContinuousClock.Instant) {
        let left = instant - ContinuousClock.now
        if left > .zero { Thread.sleep(forTimeInterval: left.seconds) }
    }
}
