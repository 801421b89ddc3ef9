import Foundation
import OpsKit
import OpsKitMetrics
import OpsMetricsServer
import OpsMonitor

public enum MetricsBench {
    /// Seconds to drain `count` small async operations through a monitored queue, with
    /// `QueueMetrics` exporting to a Prometheus registry (updated every second, as opsdash does)
    /// or without; `exported` adds the monitor catching up (it applies changes in batches, behind
    /// the queue) and, with metrics, the final update that exports every finish.
    public static func run(metrics: Bool, count: Int) -> (drained: Double, exported: Double) {
        let operations: [Operation] = (0..<count).map { _ in ClosureOperation {} }
        let queue = ObservableOperationQueue()
        let monitor = QueueMonitor(queue: queue, clock: LiveClock())
        let endpoint = metrics ? PrometheusEndpoint() : nil
        let exporter = endpoint.map { QueueMetrics(monitor: monitor, queueName: "bench", factory: $0.factory) }
        exporter?.start(every: .seconds(1))
        var drained = 0.0
        let exported = time {
            drained = time {
                queue.addOperations(operations, waitUntilFinished: false)
                queue.waitUntilAllOperationsAreFinished()
            }
            _ = monitor.snapshot()
            exporter?.update()
        }
        if let endpoint {
            let text = endpoint.exposition()
            precondition(
                text.contains("opsdash_operations_finished_total{queue=\"bench\",outcome=\"succeeded\"} \(count)"),
                "metrics missed finishes")
        }
        exporter?.stop()
        monitor.stop()
        return (drained, exported)
    }
}
