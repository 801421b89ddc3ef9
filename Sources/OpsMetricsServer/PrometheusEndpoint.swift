import OpsKitMetrics
import Prometheus

/// The Prometheus backend for `QueueMetrics`: a registry, the swift-metrics factory that fills
/// it (with histogram buckets suited to operations), and the text exposition a scrape returns.
///
/// Bootstrapping `MetricsSystem` with `factory` is the app's call; a `QueueMetrics` can also be
/// given `factory` directly.
public final class PrometheusEndpoint: Sendable {
    /// Where the metrics live.
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory writing into `registry`.
    public let factory: PrometheusMetricsFactory
    private let beforeScrape: @Sendable () -> Void

    /// A new registry; `beforeScrape` runs before each exposition (e.g. `QueueMetrics.update`).
    public init(beforeScrape: @escaping @Sendable () -> Void = {}) {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        for name in MetricName.allCases where name.type == "histogram" {
            factory.durationHistogramBuckets[name.rawValue] = MetricName.durationBuckets
        }
        self.factory = factory
        self.beforeScrape = beforeScrape
    }

    /// The exposition (Prometheus text format 0.0.4), brought up to date first.
    public func exposition() -> String {
        beforeScrape()
        return Self.addingHelp(to: registry.emitToString())
    }

    /// `text` with a `# HELP` line before each `# TYPE` line of a metric `MetricName` knows
    /// (swift-metrics cannot carry help texts; Prometheus tooling expects them).
    static func addingHelp(to text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 1024)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst("# TYPE ".count).prefix { $0 != " " }
                if let known = MetricName(rawValue: String(name)) {
                    out += "# HELP \(known.rawValue) \(known.help)\n"
                }
            }
            out += line
            out += "\n"
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
