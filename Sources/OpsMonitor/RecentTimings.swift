import OpsKit

/// How long the most recently finished operations waited (added → started) and ran (started →
/// finished), for percentiles per kind: the last `capacity` finishes of operations that started,
/// on the monitor's clock.
///
/// Bounded: `capacity` entries of about 40 bytes (40 KB at most), written once per finish and
/// never touched while the queue is idle; percentiles sort the window's entries of one kind when
/// asked (the details pane asks once per frame while it is open).
package struct RecentTimings: Sendable, Equatable {
    /// The finishes kept; older ones leave the window.
    package static let capacity = 1_000

    private struct Entry: Sendable, Equatable {
        var kind: OperationKind
        var wait: Duration
        var run: Duration
    }

    /// A ring once full: `next` is the oldest entry's slot. In chunks: the store's first finish
    /// after a picture (which shares the ring) copies one chunk, not the 1,000 entries.
    private var entries = ChunkedArray<Entry>()
    private var next = 0

    package init() {}

    /// Finishes in the window, of every kind.
    package var count: Int { entries.count }

    /// Adds a finish, dropping the oldest past `capacity`.
    mutating func record(kind: OperationKind, wait: Duration, run: Duration) {
        let zero = Duration.zero
        let entry = Entry(
            kind: kind, wait: wait.isShorter(than: zero) ? zero : wait, run: run.isShorter(than: zero) ? zero : run)
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
            next += 1
            if next == Self.capacity { next = 0 }
        }
    }

    /// The 50th, 95th and 99th percentiles (nearest rank) of the wait and run times of the
    /// window's operations of `kind`; nil when none finished.
    package func percentiles(of kind: OperationKind) -> TimingPercentiles? {
        var waits: [Duration] = []
        var runs: [Duration] = []
        for entry in entries where entry.kind == kind {
            waits.append(entry.wait)
            runs.append(entry.run)
        }
        guard !waits.isEmpty else { return nil }
        return TimingPercentiles(count: waits.count, wait: Percentiles(waits), run: Percentiles(runs))
    }
}

/// The wait and run percentiles of `count` recent finishes of one kind.
package struct TimingPercentiles: Sendable, Equatable {
    /// How many finishes they are of.
    package var count: Int
    /// Added → started.
    package var wait: Percentiles
    /// Started → finished.
    package var run: Percentiles

    package init(count: Int, wait: Percentiles, run: Percentiles) {
        self.count = count
        self.wait = wait
        self.run = run
    }
}

/// The 50th, 95th and 99th percentiles of some durations, by nearest rank (each is one of them).
package struct Percentiles: Sendable, Equatable {
    package var p50: Duration
    package var p95: Duration
    package var p99: Duration

    /// The percentiles of `values` (not empty).
    init(_ values: [Duration]) {
        let sorted = values.sorted()
        func rank(_ percent: Int) -> Duration {
            // Nearest rank: the smallest value with at least `percent`% of them at or below it.
            let index = (percent * sorted.count + 99) / 100 - 1
            return sorted[min(max(0, index), sorted.count - 1)]
        }
        p50 = rank(50)
        p95 = rank(95)
        p99 = rank(99)
    }

    package init(p50: Duration, p95: Duration, p99: Duration) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
    }
}
