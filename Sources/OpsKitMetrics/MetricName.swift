/// The metrics `QueueMetrics` and `RemoteMetrics` (the `opsdash_remote_*` ones) export: names, Prometheus types and help texts, in one table so the
/// exporter, the docs (docs/METRICS.md) and the tests agree.
public enum MetricName: String, CaseIterable, Sendable {
    case operationsAdded = "opsdash_operations_added_total"
    case operationsFinished = "opsdash_operations_finished_total"
    case queueOperations = "opsdash_queue_operations"
    case maxConcurrentOperations = "opsdash_queue_max_concurrent_operations"
    case suspended = "opsdash_queue_suspended"
    case waitSeconds = "opsdash_operation_wait_seconds"
    case durationSeconds = "opsdash_operation_duration_seconds"
    case transferBytes = "opsdash_transfer_bytes_total"
    case remoteClients = "opsdash_remote_clients"
    case remoteResyncs = "opsdash_remote_resyncs_total"
    case remoteCommands = "opsdash_remote_commands_total"

    /// Whether `RemoteMetrics` (a queue publisher) exports it, rather than `QueueMetrics`.
    public var isRemote: Bool {
        switch self {
        case .remoteClients, .remoteResyncs, .remoteCommands: true
        default: false
        }
    }

    /// The Prometheus type: counter, gauge or histogram.
    public var type: String {
        switch self {
        case .operationsAdded, .operationsFinished, .transferBytes, .remoteResyncs, .remoteCommands: "counter"
        case .queueOperations, .maxConcurrentOperations, .suspended, .remoteClients: "gauge"
        case .waitSeconds, .durationSeconds: "histogram"
        }
    }

    /// The labels every series of this metric carries.
    public var labels: [String] {
        switch self {
        case .operationsAdded, .maxConcurrentOperations, .suspended, .waitSeconds: ["queue"]
        case .operationsFinished, .durationSeconds: ["queue", "outcome"]
        case .queueOperations: ["queue", "state"]
        case .transferBytes: ["queue", "direction"]
        case .remoteClients: ["queue", "role"]
        case .remoteResyncs: ["queue", "reason"]
        case .remoteCommands: ["queue", "cmd", "result"]
        }
    }

    /// One line saying what it measures (the exposition's `# HELP`).
    public var help: String {
        switch self {
        case .operationsAdded: "Operations added to the queue."
        case .operationsFinished: "Operations finished, by outcome (succeeded, failed, cancelled)."
        case .queueOperations: "Unfinished operations by state (waiting for dependencies, ready, executing)."
        case .maxConcurrentOperations: "The queue's limit on concurrently executing operations."
        case .suspended: "1 while the queue is paused, else 0."
        case .waitSeconds: "Time from added to started, for operations that started."
        case .durationSeconds: "Time from started to finished, by outcome, for operations that started."
        case .transferBytes: "Bytes transferred by download and upload operations (retried bytes count again)."
        case .remoteClients: "Viewers attached to the published queue, by role (observer, controller)."
        case .remoteResyncs: "Fresh snapshots sent to attached viewers, by reason (asked, lagged, burst)."
        case .remoteCommands: "Commands from attached viewers, by command and result (ok or the refusal's error code)."
        }
    }

    /// Histogram bucket upper bounds, in seconds, suited to operations that take milliseconds to
    /// minutes. swift-metrics cannot carry buckets: a backend sets them per metric name (for
    /// swift-prometheus, `PrometheusMetricsFactory.durationHistogramBuckets`).
    public static let durationBuckets: [Duration] = [
        .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
        .seconds(120), .seconds(300), .seconds(600),
    ]
}
