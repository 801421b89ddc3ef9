import Foundation

/// Where OpsKit gets time: transfers, retries and monitors read `now` and schedule work on it.
///
/// Inject `ManualClock` in tests (virtual time you advance) and `LiveClock` in apps.
public protocol SimulationClock: AnyObject, Sendable {
    /// Time elapsed since the clock's origin.
    var now: Duration { get }
    /// Runs `work` once `delay` has passed on this clock. The returned handle can cancel it.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

/// A handle to work scheduled on a `SimulationClock`.
public final class ScheduledWork: @unchecked Sendable {
    // Locking: `cancelledFlag` is only touched under `lock`.
    private let lock = NSLock()
    private var cancelledFlag = false

    public init() {}

    /// Stops the work from running if it has not started. Safe from any thread, idempotent.
    public func cancel() {
        lock.lock()
        cancelledFlag = true
        lock.unlock()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelledFlag
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `components.seconds`: whole seconds, toward zero. A duration from zero to ~584 billion
    /// years takes one full-width division instead of `components`' 128-bit multiplies.
    package var wholeSeconds: Int64 {
        if _high >= 0, _high < 1_000_000_000_000_000_000 {
            let (quotient, _) = UInt64(1_000_000_000_000_000_000).dividingFullWidth((high: UInt64(_high), low: _low))
            if quotient <= UInt64(Int64.max) { return Int64(quotient) }
        }
        return components.seconds
    }

    /// Whole nanoseconds, saturating at `Int64.min`/`.max` (for timers and metrics that take
    /// nanoseconds).
    package var nanoseconds: Int64 {
        // A duration from zero to ~584 years (its attoseconds' high word below 10^9) takes one
        // full-width division; `components` costs ~200 instructions of 128-bit multiplies, and
        // a monitor converts several times for every operation.
        if _high >= 0, _high < 1_000_000_000 {
            let (quotient, _) = UInt64(1_000_000_000).dividingFullWidth((high: UInt64(_high), low: _low))
            return quotient <= UInt64(Int64.max) ? Int64(quotient) : .max
        }
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow
            ? .max : scaled + attoseconds / 1_000_000_000
    }
}
