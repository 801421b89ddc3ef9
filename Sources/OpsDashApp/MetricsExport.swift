import Foundation
import OpsKitMetrics
import OpsMetricsServer
import OpsMonitor

/// `--metrics-port`: the run's metrics served at `http://127.0.0.1:PORT/metrics` (Prometheus
/// text format, swift-prometheus backend) while opsdash runs; with `--linger`, also after.
final class MetricsExport {
    let server: MetricsHTTPServer
    let metrics: QueueMetrics

    /// Starts serving `monitor`'s metrics with queue label `queueName`; prints the address on
    /// stderr (the port chosen, when asked for 0).
    init(port: Int, host: String = "127.0.0.1", monitor: QueueMonitor, queueName: String) throws(MetricsExportError) {
        let endpoint = PrometheusEndpoint()
        let metrics = QueueMetrics(monitor: monitor, queueName: queueName, factory: endpoint.factory)
        do {
            server = try MetricsHTTPServer(host: host, port: port) {
                metrics.update()
                return endpoint.exposition()
            }
        } catch {
            throw MetricsExportError(host: host, port: port, reason: "\(error)")
        }
        self.metrics = metrics
        metrics.start(every: .seconds(1))
        DashboardNotices.post("metrics at http://\(host):\(server.port)/metrics")
    }

    /// Keeps serving for up to `seconds` (infinity: no limit) or until SIGINT/SIGTERM/SIGHUP.
    func linger(seconds: Double, signals: StopSignals) {
        guard seconds > 0 else { return }
        let end = Self.lingerEnd(after: seconds, from: ContinuousClock.now)
        while signals.received == nil {
            if let end, ContinuousClock.now >= end { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// When a linger of `seconds` ends; nil for no end (infinity, or more than 30 years: a
    /// number that large is meant as "until stopped", and would not fit a clock instant).
    static func lingerEnd(after seconds: Double, from now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard seconds.isFinite, seconds < 1e9 else { return nil }
        return now + .milliseconds(Int64(seconds * 1000))
    }

    func shutdown() {
        metrics.stop()
        server.shutdown()
    }
}

/// The metrics port could not be bound.
struct MetricsExportError: Error, CustomStringConvertible {
    let host: String
    let port: Int
    let reason: String

    var description: String { "cannot serve metrics on \(host):\(port): \(reason)" }
}
