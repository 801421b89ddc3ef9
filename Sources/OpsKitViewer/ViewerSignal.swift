import Foundation
import OpsKit

/// What callers of a viewer (`perform`, `waitForFirstAnswer`, `waitUntilFinished`) wait on: the
/// reader thread broadcasts after every round of changes it applied, and each waiter looks
/// again; a timeout is work on the viewer's `SimulationClock`, so a `ManualClock` decides when
/// it passes.
final class ViewerSignal: Sendable {
    /// Whether one wait's timeout passed; read and written only with `condition` locked.
    private final class Expiry: @unchecked Sendable {
        var passed = false
    }

    // Locking: `condition` guards the waits and each `Expiry`; what waiters look at has its own
    // lock, taken inside `condition`'s and never the other way round.
    private let condition = NSCondition()

    /// Wakes every waiter to look again (call with no other lock held).
    func broadcast() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `answer` gives a value (asked at once, then after each broadcast), or until
    /// `timeout` (nil: no limit) passed on `clock`; nil when it timed out.
    func wait<Answer>(timeout: Duration?, on clock: any SimulationClock, _ answer: () -> Answer?) -> Answer? {
        let expiry = Expiry()
        let timer = timeout.map { timeout in
            clock.schedule(after: timeout) { [condition] in
                condition.lock()
                expiry.passed = true
                condition.broadcast()
                condition.unlock()
            }
        }
        defer { timer?.cancel() }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = answer() { return value }
            if expiry.passed { return nil }
            condition.wait()
        }
    }
}
