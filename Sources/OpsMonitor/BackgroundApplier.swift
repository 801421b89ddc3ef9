import Foundation
import OpsKit

/// Runs one piece of work whenever asked, on a thread of its own at background priority
/// (nice 19): the monitor's bookkeeping uses CPU the watched queue leaves idle instead of
/// competing with it. Requests made while the work runs are coalesced into one more run.
final class BackgroundApplier: @unchecked Sendable {
    // Locking: `requested` and `stopped` are only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var requested = false
    private var stopped = false

    /// Starts the thread; it calls `work` after each `request()` until `stop()`.
    init(name: String, work: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            nameCurrentThread(name)
            lowerThreadPriorityToBackground()
            while waitForRequest() { work() }
        }
        thread.name = name
        thread.start()
    }

    /// Asks for one more run of the work.
    func request() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread after the current run, if any.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Waits for a request; false once stopped.
    private func waitForRequest() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !requested, !stopped { condition.wait() }
        requested = false
        return !stopped
    }
}
