import Foundation

/// A task executor with one thread of its own that runs the jobs given to it, in order.
///
/// Jobs that block block only this thread, never the cooperative pool. `finish()` lets the thread
/// end once the jobs given so far have run. The job list is guarded by `condition`.
package final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    private static let nameKey = "OpsKitTesting.DedicatedThreadExecutor"

    /// The name of the dedicated thread the caller runs on, or nil on any other thread.
    /// (`Thread.name` is no help: corelibs reads it back from the 15-byte pthread name.)
    package static var currentThreadName: String? {
        Thread.current.threadDictionary[nameKey] as? String
    }

    /// Starts the thread; ``currentThreadName`` reads `name` back on it.
    package init(name: String) {
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.nameKey] = name
            runJobs()
        }
        thread.start()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread after the jobs already given have run.
    package func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        while let job = nextJob() { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    private func nextJob() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !finished { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}
