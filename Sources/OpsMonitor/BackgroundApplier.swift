import Foundation
import OpsKit

/// Runs one piece of work whenever asked, on a thread of its own at background priority
/// (nice 19), once what it watches has settled: the monitor's bookkeeping uses CPU the watched
/// queue leaves idle instead of competing with it. Requests made while the work runs are
/// coalesced into one more run.
///
/// Settling: after a request the thread waits `settle.interval` at a time for as long as
/// `activity()` (changes recorded so far) moved by `settle.busy` or more in the last interval,
/// or `expectsMore()`, up to `settle.longest` in all. On a machine whose cores are not independent (two vCPUs on
/// one physical core), any work on the second slows the queue's workers on the first by a
/// fifth or more, even at nice 19: a burst is applied after it, not during it. Readers apply
/// what they need themselves meanwhile, and recording threads past the inbox's limit.
final class BackgroundApplier: @unchecked Sendable {
    /// How the thread waits for what it watches to settle before each run.
    struct Settling: Sendable {
        /// One wait.
        var interval: Duration
        /// Changes in one interval that mean "still busy".
        var busy: UInt64
        /// The longest it waits in all.
        var longest: Duration
        /// No waiting: each request runs the work at once.
        static let none = Settling(interval: .zero, busy: .max, longest: .zero)
    }

    // Locking: `requested` and `stopped` are only touched under `condition`'s lock.
    private let condition = NSCondition()
    private var requested = false
    private var stopped = false
    private let settle: Settling
    private let activity: @Sendable () -> UInt64
    private let expectsMore: @Sendable () -> Bool

    /// Starts the thread; it calls `work` after each request (once settled) until `stop()`.
    /// While `expectsMore()` (work under way that will surely record more, such as operations
    /// added and not finished), a quiet interval does not end the wait either.
    init(
        name: String, settle: Settling = .none, activity: @escaping @Sendable () -> UInt64 = { 0 },
        expectsMore: @escaping @Sendable () -> Bool = { false }, work: @escaping @Sendable () -> Void
    ) {
        self.settle = settle
        self.activity = activity
        self.expectsMore = expectsMore
        let thread = Thread { [self] in
            nameCurrentThread(name)
            lowerThreadPriorityToBackground()
            while waitForRequest() { work() }
        }
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

    /// Waits for a request, then for what it watches to settle; false once stopped. A request
    /// made while settling is the same run.
    private func waitForRequest() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !requested, !stopped { condition.wait() }
        if settle.interval > .zero { waitToSettle() }
        requested = false
        return !stopped
    }

    /// Waits (under `condition`'s lock) while `activity()` moves by `settle.busy` or more an
    /// interval or `expectsMore()`, up to `settle.longest`; only `stop()` cuts a wait short.
    private func waitToSettle() {
        let interval = settle.interval.seconds
        let latest = Date(timeIntervalSinceNow: settle.longest.seconds)
        var before = activity()
        while !stopped {
            let deadline = min(latest, Date(timeIntervalSinceNow: interval))
            while !stopped, condition.wait(until: deadline) {}
            let now = activity()
            guard now &- before >= settle.busy || expectsMore(), Date() < latest else { return }
            before = now
        }
    }
}
