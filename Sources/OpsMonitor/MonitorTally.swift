/// What a `QueueMonitor` hands a metrics exporter: the queue's current counts and settings, the
/// bytes transferred so far by direction, and the timings of operations finished since the last
/// `QueueMonitor.takeTally()`.
///
/// Collected only after `QueueMonitor.startTally()`; costs a few additions per finish and per
/// progress change, under the lock the monitor already holds.
public struct MonitorTally: Sendable, Equatable {
    /// Operations by state; `counts.total` is every operation ever added.
    public var counts = StateCounts()
    public var isSuspended = false
    public var maxConcurrentOperationCount = 1
    /// Bytes transferred so far by download operations (never decreases, retries included).
    public var downloadedBytes: Int64 = 0
    /// Bytes transferred so far by upload operations (never decreases, retries included).
    public var uploadedBytes: Int64 = 0
    /// Operations finished since the last take, oldest first.
    public var finished: [FinishedTiming] = []
    /// Finishes not kept in `finished` because nobody took the tally for too long
    /// (more than `MonitorTally.timingLimit` piled up).
    public var droppedTimings = 0

    /// Finishes kept between two takes; the rest are counted in `droppedTimings`.
    public static let timingLimit = 1_000_000

    public init() {}
}

/// How long one finished operation waited and ran, on the monitor's clock.
public struct FinishedTiming: Sendable, Equatable {
    public var outcome: Outcome
    /// From added to started; nil if it never started (cancelled while waiting).
    public var wait: Duration?
    /// From started to finished; nil if it never started.
    public var duration: Duration?

    public init(outcome: Outcome, wait: Duration?, duration: Duration?) {
        self.outcome = outcome
        self.wait = wait
        self.duration = duration
    }
}

extension MonitorTally {
    /// Adds a finish (or counts it as dropped past the limit).
    mutating func recordFinish(_ timing: FinishedTiming) {
        if finished.count < Self.timingLimit {
            finished.append(timing)
        } else {
            droppedTimings += 1
        }
    }

    /// Adds transferred bytes for an operation of `kind` (negative deltas are ignored).
    mutating func recordTransfer(_ delta: Int64, kind: OperationKind) {
        guard delta > 0 else { return }
        switch kind {
        case .download: downloadedBytes += delta
        case .upload: uploadedBytes += delta
        case .process, .other: break
        }
    }
}
