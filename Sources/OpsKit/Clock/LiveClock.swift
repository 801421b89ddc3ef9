import Dispatch
import Foundation

/// A real-time clock, optionally sped up: at `speed` 10, one simulated second takes 100 ms.
public final class LiveClock: SimulationClock {
    private let origin = ContinuousClock.now
    private let speed: Double
    private let queue = DispatchQueue(label: "opskit.liveclock", attributes: .concurrent)

    /// Creates a clock whose time runs `speed` times faster than the wall clock (> 0).
    public init(speed: Double = 1) {
        self.speed = speed > 0 && speed.isFinite ? speed : 1
    }

    public var now: Duration {
        let elapsed = ContinuousClock.now - origin
        return speed == 1 ? elapsed : elapsed * speed  // monitors read this on every change
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        let wallSeconds = max(0, delay.seconds / speed)
        queue.asyncAfter(deadline: .now() + wallSeconds) {
            if !handle.isCancelled { work() }
        }
        return handle
    }
}
