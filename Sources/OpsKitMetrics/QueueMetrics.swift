import CoreMetrics
import Dispatch
import OpsKit
import OpsMonitor
import Synchronization

/// Exports a `QueueMonitor`'s picture of its queue as swift-metrics counters, gauges and
/// histograms (names in `MetricName`, described in docs/METRICS.md).
///
/// It reads the monitor's `MonitorTally` (counts, settings, bytes, and the timings of operations
/// finished since the last read) on `update()` and turns differences into metric updates, so the
/// queue's worker threads never call into the metrics backend. Call `update()` before each
/// scrape, and `start(every:)` so timings do not pile up between scrapes. Every label value is
/// created at zero on init. No label names an operation. The backend is the app's choice:
/// `factory` defaults to whatever `MetricsSystem` was bootstrapped with.
public final class QueueMetrics: Sendable {
    private struct Exported {
        var added = 0
        var finished: [Outcome: Int] = [:]
        var downloaded: Int64 = 0
        var uploaded: Int64 = 0
    }

    private struct Instruments {
        let added: Counter
        let finished: [Outcome: Counter]
        let states: [Lifecycle: Gauge]
        let maxConcurrent: Gauge
        let suspended: Gauge
        let wait: Timer
        let duration: [Outcome: Timer]
        let downloaded: Counter
        let uploaded: Counter
    }

    /// The `queue` label value.
    public let queueName: String
    /// This exporter's own tally of the monitor (other exporters have theirs).
    private let tally: MonitorTallyReader
    private let instruments: Instruments
    // Locking: `exported` holds what the counters already show; taking the tally and exporting
    // it happen under it, so two concurrent updates never export the same difference twice.
    private let exported = OpsMutex(Exported())
    /// Bumped by `start` and `stop`; a scheduled update runs only in its own generation.
    private let periodic = Atomic<UInt64>(0)

    /// Registers every series for queue `queueName` at zero and starts its own tally of the
    /// monitor (several exporters may watch one monitor; each sees every finish).
    public init(monitor: QueueMonitor, queueName: String, factory: any MetricsFactory = MetricsSystem.factory) {
        self.tally = monitor.makeTallyReader()
        self.queueName = queueName
        let queue = ("queue", queueName)
        func counter(_ name: MetricName, _ extra: [(String, String)] = []) -> Counter {
            Counter(label: name.rawValue, dimensions: [queue] + extra, factory: factory)
        }
        func gauge(_ name: MetricName, _ extra: [(String, String)] = []) -> Gauge {
            Gauge(label: name.rawValue, dimensions: [queue] + extra, factory: factory)
        }
        func timer(_ name: MetricName, _ extra: [(String, String)] = []) -> Timer {
            Timer(label: name.rawValue, dimensions: [queue] + extra, factory: factory)
        }
        let outcomes = Outcome.allCases
        instruments = Instruments(
            added: counter(.operationsAdded),
            finished: Dictionary(
                uniqueKeysWithValues: outcomes.map { ($0, counter(.operationsFinished, [("outcome", $0.rawValue)])) }),
            states: Dictionary(
                uniqueKeysWithValues: Self.gaugedStates.map { ($0, gauge(.queueOperations, [("state", $0.rawValue)])) }),
            maxConcurrent: gauge(.maxConcurrentOperations),
            suspended: gauge(.suspended),
            wait: timer(.waitSeconds),
            duration: Dictionary(
                uniqueKeysWithValues: outcomes.map { ($0, timer(.durationSeconds, [("outcome", $0.rawValue)])) }),
            downloaded: counter(.transferBytes, [("direction", "download")]),
            uploaded: counter(.transferBytes, [("direction", "upload")]))
        // Counters start at zero in every backend; gauges are set now, so all series exist.
        for gauge in instruments.states.values { gauge.record(0) }
        instruments.maxConcurrent.record(0)
        instruments.suspended.record(0)
        for counter in [instruments.added, instruments.downloaded, instruments.uploaded]
            + Array(instruments.finished.values)
        {
            counter.increment(by: 0)
        }
        update()
    }

    /// States `opsdash_queue_operations` reports (finished ones are counted by outcome instead).
    static let gaugedStates: [Lifecycle] = [.waiting, .ready, .executing]

    /// Brings every metric up to date with the monitor (cheap: a few subtractions plus one
    /// histogram observation per operation finished since the last update).
    public func update() {
        exported.withLock { exported in
            export(tally.take(), since: &exported)
        }
    }

    /// Calls `update()` every `interval` on a background queue until `stop()` (or until this
    /// object is released).
    public func start(every interval: Duration = .seconds(1)) {
        let generation = periodic.add(1, ordering: .relaxed).newValue
        schedule(generation, every: max(interval, .milliseconds(1)))
    }

    /// Stops the periodic updates (metrics keep their values).
    public func stop() {
        periodic.add(1, ordering: .relaxed)
    }

    private func schedule(_ generation: UInt64, every interval: Duration) {
        let delay = DispatchTimeInterval.nanoseconds(Int(interval.nanoseconds))
        Self.updates.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.periodic.load(ordering: .relaxed) == generation else { return }
            self.update()
            self.schedule(generation, every: interval)
        }
    }

    private static let updates = DispatchQueue(label: "opskit.metrics", qos: .utility)

    private func export(_ tally: MonitorTally, since exported: inout Exported) {
        let counts = tally.counts
        increment(instruments.added, to: counts.total, from: &exported.added)
        for outcome in Outcome.allCases {
            let now = counts[outcome]
            var before = exported.finished[outcome, default: 0]
            if let counter = instruments.finished[outcome] { increment(counter, to: now, from: &before) }
            exported.finished[outcome] = before
        }
        instruments.states[.waiting]?.record(counts.waiting)
        instruments.states[.ready]?.record(counts.ready)
        instruments.states[.executing]?.record(counts.executing)
        instruments.maxConcurrent.record(tally.maxConcurrentOperationCount)
        instruments.suspended.record(tally.isSuspended ? 1 : 0)
        if tally.downloadedBytes > exported.downloaded {
            instruments.downloaded.increment(by: tally.downloadedBytes - exported.downloaded)
            exported.downloaded = tally.downloadedBytes
        }
        if tally.uploadedBytes > exported.uploaded {
            instruments.uploaded.increment(by: tally.uploadedBytes - exported.uploaded)
            exported.uploaded = tally.uploadedBytes
        }
        for timing in tally.finished {
            if let wait = timing.wait { instruments.wait.recordNanoseconds(wait.nanoseconds) }
            if let duration = timing.duration {
                instruments.duration[timing.outcome]?.recordNanoseconds(duration.nanoseconds)
            }
        }
    }

    private func increment(_ counter: Counter, to value: Int, from exported: inout Int) {
        guard value > exported else { return }
        counter.increment(by: Int64(value - exported))
        exported = value
    }
}

extension StateCounts {
    /// Finished operations with `outcome`.
    subscript(outcome: Outcome) -> Int {
        switch outcome {
        case .succeeded: succeeded
        case .failed: failed
        case .cancelled: cancelled
        }
    }
}
