import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real-time clock, optionally sped up: at `speed` 10, one simulated second takes 100 ms.
///
/// It can be paused (`pause()` / `resume()`): time stands still and scheduled work waits, so a
/// simulated run stops producing changes (how headless mode holds a run back while its reader
/// lags). Work whose time came during a pause runs when it ends, in the order it was due.
public final class LiveClock: SimulationClock {
    /// The monotonic clock's reading when this clock was made, in nanoseconds.
    private let origin = LiveClock.monotonicNanoseconds()
    private let speed: Double
    private let queue = DispatchQueue(label: "opskit.liveclock", attributes: .concurrent)
    /// Running: wall nanoseconds spent paused so far (≥ 0). Paused: `-1 - t`, where `t` is the
    /// wall nanoseconds of running time at which the clock stopped. One word, so `now` reads a
    /// consistent value with one load.
    private let anchor = Atomic<Int64>(0)
    /// Work that fell due while paused, with its due time (running-time nanoseconds); changed
    /// only with the lock held, together with `anchor` in `pause()`/`resume()`.
    private let held = Mutex<[(due: Int64, work: @Sendable () -> Void)]>([])

    /// Creates a clock whose time runs `speed` times faster than the wall clock (> 0); with
    /// `paused`, it stands at zero until `resume()` (e.g. while the work it times is prepared).
    public init(speed: Double = 1, paused: Bool = false) {
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        if paused { anchor.store(-1, ordering: .relaxed) }
    }

    public var now: Duration {
        // Monitors stamp every change with this: one atomic load, one `clock_gettime` and
        // integer arithmetic (`ContinuousClock.now` and `Instant` arithmetic cost three times as
        // many instructions).
        let running = Duration.nanoseconds(runningNanoseconds())
        return speed == 1 ? running : running * speed
    }

    /// Whether the clock is paused.
    public var isPaused: Bool { anchor.load(ordering: .relaxed) < 0 }

    /// Stops time; scheduled work that falls due waits for `resume()`. Does nothing if paused.
    public func pause() {
        held.withLock { _ in
            let value = anchor.load(ordering: .relaxed)
            guard value >= 0 else { return }
            anchor.store(-1 - (wallNanoseconds() - value), ordering: .relaxed)
        }
    }

    /// Lets time run again from where it stopped and reschedules the work that waited.
    public func resume() {
        let released = held.withLock { held -> [(due: Int64, work: @Sendable () -> Void)] in
            let value = anchor.load(ordering: .relaxed)
            guard value < 0 else { return [] }
            anchor.store(wallNanoseconds() - (-1 - value), ordering: .relaxed)
            defer { held.removeAll() }
            return held
        }
        for item in released.sorted(by: { $0.due < $1.due }) { run(item.work, due: item.due) }
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        let wallDelay = max(0, delay.seconds / speed * 1e9)
        let due = runningNanoseconds() + (wallDelay < 9e18 ? Int64(wallDelay) : Int64.max / 2)
        run({ if !handle.isCancelled { work() } }, due: due)
        return handle
    }

    /// Runs `work` once the running time reaches `due`: at its wall deadline if the clock
    /// doesn't pause meanwhile, else after the pause.
    private func run(_ work: @escaping @Sendable () -> Void, due: Int64) {
        let wait = max(0, due - runningNanoseconds())
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: wait))) { [self] in
            let ready = held.withLock { held -> Bool in
                if anchor.load(ordering: .relaxed) < 0 {
                    held.append((due, work))
                    return false
                }
                return true
            }
            guard ready else { return }
            if runningNanoseconds() < due {
                run(work, due: due)  // a pause ended in between: the rest of the wait
            } else {
                work()
            }
        }
    }

    /// Wall nanoseconds since the clock started, minus the time spent paused.
    private func runningNanoseconds() -> Int64 {
        let value = anchor.load(ordering: .relaxed)
        return value < 0 ? -1 - value : wallNanoseconds() - value
    }

    private func wallNanoseconds() -> Int64 {
        Self.monotonicNanoseconds() - origin
    }

    /// The system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds.
    private static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
