import CoreMetrics
import Foundation
import OpsKitMetrics
import OpsMetricsServer
import OpsMonitor

/// With `--metrics-port N` on the command line: the app picks swift-prometheus as its metrics
/// backend, exports the monitor's metrics and serves them at http://127.0.0.1:N/metrics while it
/// runs. Returns what keeps them alive (nil without the flag or if the port cannot be bound).
func serveMetrics(for monitor: QueueMonitor, queueName: String) -> (QueueMetrics, MetricsHTTPServer)? {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--metrics-port"), flag + 1 < arguments.count,
        let port = Int(arguments[flag + 1])
    else { return nil }
    let endpoint = PrometheusEndpoint()
    MetricsSystem.bootstrap(endpoint.factory)  // the app's choice; OpsKitMetrics never bootstraps
    let metrics = QueueMetrics(monitor: monitor, queueName: queueName)
    metrics.start(every: .seconds(1))
    do {
        let server = try MetricsHTTPServer(port: port) {
            metrics.update()
            return endpoint.exposition()
        }
        print("metrics at http://127.0.0.1:\(server.port)/metrics")
        return (metrics, server)
    } catch {
        FileHandle.standardError.write(Data("AppExample: cannot serve metrics on port \(port): \(error)\n".utf8))
        return nil
    }
}
