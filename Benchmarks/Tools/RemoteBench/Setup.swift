import BenchWorkloads
import Foundation

/// What runs beside the queue in one measured side.
enum Setup: CustomStringConvertible {
    case unmonitored, monitored, published(viewers: Int)
    var description: String {
        switch self {
        case .unmonitored: "ObservableOperationQueue, no monitor"
        case .monitored: "+ QueueMonitor (no events recorded, no publisher)"
        case .published(let viewers): "+ QueuePublisher, \(viewers) viewers"
        }
    }
}

/// CPU seconds this process used so far (user + system).
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// The median of `values`.
func median(_ values: [Double]) -> Double { Stats(values).median }
