import CoreMetrics
import OpsKit
import Synchronization

/// Exports what a queue publisher has served as swift-metrics series (docs/METRICS.md):
/// `opsdash_remote_clients{queue,role}` (gauge), `opsdash_remote_resyncs_total{queue,reason}` and
/// `opsdash_remote_commands_total{queue,cmd,result}` (counters). It takes plain counts keyed by
/// label value (OpsKitPublisher's `RemoteTally` gives them), so neither module depends on the other.
/// Every label value passed to `init` is created at zero; values not passed there are ignored, so
/// no connection or operation ever becomes a label.
public final class RemoteMetrics: Sendable {
    /// The `queue` label value.
    public let queueName: String
    private let clients: [String: Gauge]
    private let resyncs: [String: Counter]
    private let commands: [String: [String: Counter]]
    // Locking: the counts already exported, read and written under this lock only.
    private let exported = OpsMutex<(resyncs: [String: Int], commands: [String: [String: Int]])>(([:], [:]))

    /// Registers every series for `queueName` at zero: one per role, reason, and command × result.
    public init(
        queueName: String, roles: [String], resyncReasons: [String], commands: [String], results: [String],
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.queueName = queueName
        let queue = ("queue", queueName)
        var clients: [String: Gauge] = [:]
        for role in roles {
            let gauge = Gauge(
                label: MetricName.remoteClients.rawValue, dimensions: [queue, ("role", role)], factory: factory)
            gauge.record(0)
            clients[role] = gauge
        }
        self.clients = clients
        resyncs = Dictionary(
            uniqueKeysWithValues: resyncReasons.map {
                (
                    $0,
                    Counter(
                        label: MetricName.remoteResyncs.rawValue, dimensions: [queue, ("reason", $0)], factory: factory)
                )
            })
        self.commands = Dictionary(
            uniqueKeysWithValues: commands.map { cmd in
                (
                    cmd,
                    Dictionary(
                        uniqueKeysWithValues: results.map {
                            (
                                $0,
                                Counter(
                                    label: MetricName.remoteCommands.rawValue,
                                    dimensions: [queue, ("cmd", cmd), ("result", $0)], factory: factory)
                            )
                        })
                )
            })
    }

    /// Sets the gauges to `clients` (viewers by role now) and moves the counters up to `resyncs`
    /// (by reason) and `commands` (by command, then result), totals since the publisher started.
    public func update(clients: [String: Int], resyncs: [String: Int], commands: [String: [String: Int]]) {
        exported.withLock { exported in
            for (role, gauge) in self.clients { gauge.record(clients[role] ?? 0) }
            for (reason, counter) in self.resyncs {
                Self.increment(counter, to: resyncs[reason] ?? 0, from: &exported.resyncs[reason, default: 0])
            }
            for (cmd, byResult) in self.commands {
                for (result, counter) in byResult {
                    Self.increment(
                        counter, to: commands[cmd]?[result] ?? 0,
                        from: &exported.commands[cmd, default: [:]][result, default: 0])
                }
            }
        }
    }

    private static func increment(_ counter: Counter, to value: Int, from exported: inout Int) {
        guard value > exported else { return }
        counter.increment(by: Int64(value - exported))
        exported = value
    }
}
