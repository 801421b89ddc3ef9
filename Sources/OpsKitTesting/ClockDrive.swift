import Foundation
import OpsKit

extension ManualClock {
    /// Waits (bounded by `timeout` of wall-clock time) until `queue` has settled on this clock:
    /// every operation it can run has started and scheduled its next step here. Returns whether
    /// it settled.
    ///
    /// For queues of clock-driven operations (`SimulatedWorkOperation`s: while executing, each has
    /// exactly one piece of work scheduled on the clock). Once settled, nothing changes until the
    /// clock is advanced, so a test that advances only settled queues sees the same virtual
    /// timeline on every run.
    public func waitUntilSettled(_ queue: ObservableOperationQueue, timeout: Duration = .seconds(30)) -> Bool {
        eventually(timeout: timeout) { isSettled(queue) }
    }

    /// `waitUntilSettled(_:timeout:)` for async tests: suspends between checks instead of
    /// blocking a thread (see the async `eventually`).
    public func waitUntilSettled(_ queue: ObservableOperationQueue, timeout: Duration = .seconds(30)) async -> Bool {
        await eventually(timeout: timeout) { isSettled(queue) }
    }

    /// Whether every operation `queue` can run has started and scheduled its next step here.
    private func isSettled(_ queue: ObservableOperationQueue) -> Bool {
        let executing = queue.executingOperations.count
        guard pendingCount == executing else { return false }
        if queue.isSuspended { return true }
        let runnable = queue.allOperationCount - queue.heldOperationCount
        let limit = queue.maxConcurrentOperationCount
        return executing == (limit < 0 ? runnable : min(limit, runnable))
    }

    /// Runs `queue`'s clock-driven work until `done` holds: waits for the queue to settle, calls
    /// `each`, then advances to the next scheduled deadline (at most `step` ahead) and repeats.
    /// Returns false if the queue did not settle in time or `maxSteps` advances were not enough.
    ///
    /// Time moves only while the queue is settled, and only as far as the next piece of work, so
    /// every operation starts at the virtual time the one before it finished.
    public func run(
        _ queue: ObservableOperationQueue, step: Duration, maxSteps: Int = 100_000,
        each: () -> Void = {}, until done: () -> Bool
    ) -> Bool {
        for _ in 0..<maxSteps {
            guard waitUntilSettled(queue) else { return false }
            each()
            if done() { return true }
            advance(by: nextStep(step))
        }
        return false
    }

    /// `run(_:step:maxSteps:each:until:)` for async tests: the waits for the queue to settle
    /// suspend instead of blocking a thread.
    public func run(
        _ queue: ObservableOperationQueue, step: Duration, maxSteps: Int = 100_000,
        each: () -> Void = {}, until done: () -> Bool
    ) async -> Bool {
        for _ in 0..<maxSteps {
            guard await waitUntilSettled(queue) else { return false }
            each()
            if done() { return true }
            advance(by: nextStep(step))
        }
        return false
    }

    /// How far to advance: to the next scheduled deadline, at most `step`.
    private func nextStep(_ step: Duration) -> Duration {
        let next = pendingDeadlines.first.map { $0 - now } ?? step
        return min(step, max(.zero, next))
    }
}
