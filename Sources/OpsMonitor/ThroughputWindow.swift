import DequeModule
import OpsKit

/// The overall transfer rate: bytes completed over a sliding window of the monitor clock.
///
/// Many short operations each finish within one progress step, so their own instantaneous rates
/// are rarely seen while they run; counting the bytes that completed, whatever operation moved
/// them, gives the rate that actually moves. Bytes go into buckets of `bucket` clock time; the
/// rate at time `t` is the bytes of the buckets in the last `window` divided by the time those
/// buckets cover (`window` plus the part of the current bucket gone by; less early in a run).
/// O(1) per record, O(window / bucket) per read, bounded memory.
struct ThroughputWindow: Sendable {
    /// The span the rate averages over.
    static let window: Duration = .seconds(2)
    /// The granularity of the window.
    static let bucket: Duration = .milliseconds(100)
    private static let bucketCount = window.nanoseconds / bucket.nanoseconds

    /// (bucket index, bytes completed in it), oldest first, indices increasing.
    private var buckets = Deque<(index: Int64, bytes: Int64)>()

    /// Records `bytes` completed at clock time `time`; nothing for zero or fewer.
    mutating func record(_ bytes: Int64, at time: Duration) {
        guard bytes > 0 else { return }
        let index = Self.index(time)
        if let last = buckets.last, last.index >= index {
            // Same bucket, or a change stamped a moment before the newest one: counted there.
            buckets[buckets.count - 1].bytes += bytes
        } else {
            buckets.append((index, bytes))
        }
        while let first = buckets.first, first.index < index - Self.bucketCount {
            buckets.removeFirst()
        }
    }

    /// Starts the window as if `bytesPerSecond` had been moving up to `time` (a store rebuilt
    /// from a keyframe, which carries the rate but not the bytes behind it).
    mutating func seed(bytesPerSecond: Double, at time: Duration) {
        guard bytesPerSecond.isFinite, bytesPerSecond > 0, time > .zero else { return }
        // Over the span `rate(at:)` divides by, so the rate read back at `time` is the one seeded
        // (to a byte's rounding). A keyframe read from elsewhere may carry any rate: clamped, not
        // an Int64 overflow.
        record(Int64(clampingRounded: bytesPerSecond * Self.span(endingAt: time).seconds), at: time)
    }

    /// Bytes per second over the window ending at `time`; 0 before any time has passed.
    func rate(at time: Duration) -> Double {
        guard time > .zero else { return 0 }
        let now = Self.index(time)
        let oldest = now - Self.bucketCount
        var bytes: Int64 = 0
        for bucket in buckets.reversed() {
            guard bucket.index >= oldest else { break }
            if bucket.index <= now { bytes += bucket.bytes }
        }
        guard bytes > 0 else { return 0 }
        return Double(bytes) / Self.span(endingAt: time).seconds
    }

    /// The clock time the window ending at `time` covers: from the start of its oldest bucket
    /// (or zero) to `time`, at least one bucket.
    private static func span(endingAt time: Duration) -> Duration {
        let start = max(.zero, bucket * (index(time) - bucketCount))
        return max(bucket, time - start)
    }

    /// The bucket holding `time`, in integer arithmetic (a whole-bucket time lands in its own
    /// bucket, not the one before).
    private static func index(_ time: Duration) -> Int64 {
        max(.zero, time).nanoseconds / bucket.nanoseconds
    }
}
