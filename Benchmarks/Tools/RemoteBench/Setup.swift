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

/// CPU seconds used so far by this process's threads whose name starts with `prefix` (Linux:
/// `/proc/self/task/*/schedstat`, nanosecond run time; 0 where that is missing).
func threadCPUSeconds(named prefix: String) -> Double {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return 0 }
    var total = 0.0
    for task in tasks {
        guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
            name.hasPrefix(prefix),
            let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
            let nanoseconds = stat.split(separator: " ").first.flatMap({ Double($0) })
        else { continue }
        total += nanoseconds / 1e9
    }
    return total
}
