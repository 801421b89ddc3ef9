// Item 4: memory per operation.
import BenchWorkloads
import Foundation
import OpsKit
import OpsMonitor

/// 4. Memory.
func memory(_ run: RatioRun) -> [Row] {
    let (size, smoke) = (run.size, run.smoke)
    var rows: [Row] = []
    let n = size.memoryOperations
    log("4. memory, \(n) operations")
    let monitor = Stats((0..<(smoke ? 1 : 3)).map { _ in MemoryBench.monitorBytesPerOperation(count: n) })
    rows.append(
        Row(
            item: "4. Memory per tracked op",
            compared: "QueueMonitor tracking \(n) queued ops: malloc bytes (mallinfo2) / op",
            a: monitor, b: nil, unit: "B", ratio: monitor.median / 512,
            ratioText: String(format: "%.2f of budget", monitor.median / 512), budget: "≤ 512 B",
            met: monitor.median <= 512))
    let store = Stats((0..<(smoke ? 1 : 3)).map { _ in MemoryBench.storeBytesPerOperation(count: n) })
    rows.append(
        Row(
            item: "4. (store alone)", compared: "MonitorStore entry: malloc bytes / op",
            a: store, b: nil, unit: "B", ratio: store.median / 512,
            ratioText: String(format: "%.2f of budget", store.median / 512), budget: "—", met: nil))
    let runLength = size.boundedRunOperations
    let cap = 16.0 * 1_048_576
    let bounded = MemoryBench.boundedRunPeakBytes(count: runLength)
    let peak = Stats([Double(bounded.peak) / 1_048_576])
    rows.append(
        Row(
            item: "4. Bounded history",
            compared: "\(runLength) ops added→finished through a default-limits store: peak malloc MiB",
            a: peak, b: nil, unit: "MiB", ratio: Double(bounded.peak) / cap,
            ratioText: String(format: "%.2f of cap", Double(bounded.peak) / cap), budget: "< 16 MiB cap",
            met: Double(bounded.peak) < cap))
    return rows
}
