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
func cpuSeconds() -> Double { processCPUSeconds() }

/// The median of `values`.
func median(_ values: [Double]) -> Double { Stats(values).median }

/// CPU seconds used so far by this process's threads whose name starts with `prefix` (Linux:
/// `/proc/self/task/*/schedstat`, nanosecond run time; 0 where that is missing).
func threadCPUSeconds(named prefix: String) -> Double {
    threadCPU().values.filter { $0.name.hasPrefix(prefix) }.reduce(0) { $0 + $1.nanoseconds / 1e9 }
}

/// CPU nanoseconds each live thread of this process has run so far, by thread id, with the
/// thread's name (`/proc/self/task/*/schedstat`; empty where there is no /proc). Threads that
/// ended are missing: compare two readings only over a span in which the threads you care
/// about stay alive.
func threadCPU() -> [Int: (name: String, nanoseconds: Double)] {
    var result: [Int: (name: String, nanoseconds: Double)] = [:]
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return result }
    for task in tasks {
        guard let tid = Int(task),
            let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8),
            let first = stat.split(separator: " ").first, let nanoseconds = Double(first)
        else { continue }
        let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "?"
        result[tid] = (name.trimmingCharacters(in: .whitespacesAndNewlines), nanoseconds)
    }
    return result
}

/// CPU seconds by thread name between two `threadCPU()` readings (threads born in between count
/// from zero).
func threadCPUByName(
    from before: [Int: (name: String, nanoseconds: Double)], to after: [Int: (name: String, nanoseconds: Double)]
) -> [String: Double] {
    var result: [String: Double] = [:]
    for (tid, thread) in after {
        result[thread.name, default: 0] += (thread.nanoseconds - (before[tid]?.nanoseconds ?? 0)) / 1e9
    }
    return result
}
