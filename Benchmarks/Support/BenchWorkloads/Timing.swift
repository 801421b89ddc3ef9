#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import OpsKit
import OpsMonitor

/// Median and 90th percentile of repeated measurements.
public struct Stats: Sendable {
    public var samples: [Double]
    public init(_ samples: [Double]) { self.samples = samples.sorted() }
    public var median: Double { percentile(0.5) }
    public var p90: Double { percentile(0.9) }
    public func percentile(_ p: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((p * Double(samples.count - 1)).rounded(.up))
        return samples[min(samples.count - 1, max(0, rank))]
    }
}

public func seconds(_ duration: Duration) -> Double { duration.seconds }

/// Times `body` once.
@inline(never)
public func time(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    return seconds(clock.measure(body))
}

/// CPU time the calling thread spends in `body`, in seconds: unlike wall time, it does not
/// count time the thread waited for a core, so it holds on a busy machine.
@inline(never)
public func threadCPUTime(_ body: () -> Void) -> Double {
    func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    body()
    return now() - start
}

/// CPU seconds this process used so far, every thread (user + system, `getrusage`).
public func processCPUSeconds() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Prevents the optimiser from dropping a value.
@inline(never)
public func keepAlive<T>(_ value: T) { withExtendedLifetime(value) {} }

/// `time` for throwing bodies.
public func time(_ body: () throws -> Void) throws -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).seconds
}
