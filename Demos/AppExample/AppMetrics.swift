import CoreMetrics
import DemoSupport
import Foundation
import OpsKitMetrics
import OpsKitPublisher
import OpsMetricsServer
import OpsMonitor

/// With `--metrics-port N` on the command line: the app picks swift-prometheus as its metrics
/// backend, exports the monitor's metrics and serves them at http://127.0.0.1:N/metrics while it
/// runs, with the publisher's `opsdash_remote_*` series read from its tally at each scrape.
/// Returns what keeps them alive; a port that cannot be bound ends the app (one line, exit 2).
func serveMetrics(
    on port: Int, for monitor: QueueMonitor, queueName: String, publisher: QueuePublisher
) -> (metrics: QueueMetrics, remote: RemoteMetrics, server: MetricsHTTPServer) {
    let endpoint = PrometheusEndpoint()
    MetricsSystem.bootstrap(endpoint.factory)  // the app's choice; OpsKitMetrics never bootstraps
    let metrics = QueueMetrics(monitor: monitor, queueName: queueName)
    let remote = RemoteMetrics(publishing: queueName)
    let server: MetricsHTTPServer
    do {
        server = try MetricsHTTPServer(port: port) {
            metrics.update()
            if let tally = publisher.tally() { remote.update(tally) }
            return endpoint.exposition()
        }
    } catch {
        failUsage("--metrics-port: cannot serve metrics on 127.0.0.1:\(port): \(error)")
    }
    metrics.start(every: .seconds(1))
    say("metrics at http://127.0.0.1:\(server.port)/metrics")
    return (metrics, remote, server)
}

extension RemoteMetrics {
    /// Every role, resync reason, command and result a publisher's `RemoteTally` has, at zero.
    convenience init(publishing queueName: String) {
        let empty = RemoteTally()
        self.init(
            queueName: queueName, roles: empty.clients.keys.sorted(), resyncReasons: RemoteTally.resyncReasons,
            commands: RemoteTally.commands, results: RemoteTally.results)
    }

    /// Exports `tally` (viewers now, resyncs and commands so far).
    func update(_ tally: RemoteTally) {
        update(clients: tally.clients, resyncs: tally.resyncs, commands: tally.commands)
    }
}
