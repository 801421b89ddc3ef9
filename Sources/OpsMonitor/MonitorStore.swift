import OpsKit

/// The monitor's data: operations by id with O(1) updates, aggregate counts, the bounded event
/// log and (optionally) the event stream. A plain value, mutated under `QueueMonitor`'s lock.
public struct MonitorStore: Sendable {
    /// Limits that keep memory bounded.
    public struct Limits: Sendable {
        /// Finished operations kept for display; older ones are evicted (counted, not shown).
        public var finishedOperations: Int
        /// Entries kept in the event log.
        public var logEntries: Int
        /// State changes kept per operation.
        public var historyPerOperation: Int
        /// Seconds of per-second aggregates kept for the history view (32 bytes a second:
        /// 28.8 KB for the default 15 minutes; 2 to 86,400).
        public var historySeconds: Int

        public init(
            finishedOperations: Int = 10_000, logEntries: Int = 500, historyPerOperation: Int = 16,
            historySeconds: Int = 900
        ) {
            self.finishedOperations = max(0, finishedOperations)
            self.logEntries = max(1, logEntries)
            self.historyPerOperation = max(2, historyPerOperation)
            self.historySeconds = min(max(2, historySeconds), QueueHistory.maximumWindow)
        }
    }

    public let limits: Limits
    /// Every operation held, in id order (ids only grow, and eviction keeps the order), which
    /// is how `ChunkedArray.position(ofID:)` finds one without an id → position table.
    var operations = ChunkedArray<OperationSnapshot>()
    var finishedInStore = 0
    var counts = StateCounts()
    var completedBytes: Int64 = 0
    var totalBytes: Int64 = 0
    /// Bytes completed recently, for the overall rate.
    var throughput = ThroughputWindow()
    /// Clock time of the newest finish.
    var lastFinishedAt: Duration = .zero
    var evictedCount = 0
    /// Waits and run times of the last finishes, for percentiles.
    var recentTimings = RecentTimings()
    /// Per-second aggregates over `limits.historySeconds`.
    var history: QueueHistory
    var log = SharedLog()
    /// Whether state changes' log entries are held back in `deferredLog` until
    /// `buildDeferredLog()` (a monitor applying a backlog, which nobody reads midway).
    var defersLog = false
    /// State changes' log entries not built yet (only while `defersLog`).
    var deferredLog = DeferredLog()
    package var version: UInt64 = 0
    package var isSuspended = false
    package var maxConcurrentOperationCount = 1
    /// Events since each reader's last drain, for every reader that reads now (reader 0 is the
    /// store's own: `recordsEvents` and `drainEvents()`).
    var eventQueues: [EventQueue] = []
    /// Finish timings and transferred bytes for each metrics reader collecting now (reader 0:
    /// `startTally()` and `takeTally()`).
    var tallies: [TallyQueue] = []
    var nextID = 1

    public init(limits: Limits = Limits()) {
        self.limits = limits
        history = QueueHistory(window: limits.historySeconds)
    }

    /// A store holding what `snapshot` shows (a keyframe), continuing from there; its version
    /// is `version`. Operations not in id order (a picture made by hand) are put in id order,
    /// the last of a repeated id kept.
    package init(snapshot: QueueSnapshot, limits: Limits, version: UInt64) {
        var snapshot = snapshot
        if !KeyframeIndex.isInIDOrder(snapshot.operations) {
            snapshot.operations = KeyframeIndex.inIDOrder(snapshot.operations)
        }
        self.init(snapshot: snapshot, index: KeyframeIndex(snapshot.operations), limits: limits, version: version)
    }

    /// A store holding what `snapshot` shows, with `index` already built from its operations
    /// (`KeyframeIndex.add`, in order): O(1) in the operations.
    package init(snapshot: QueueSnapshot, index: KeyframeIndex, limits: Limits, version: UInt64) {
        self.limits = limits
        history = snapshot.history.resized(to: limits.historySeconds)
        operations = snapshot.operations
        finishedInStore = index.finishedInStore
        lastFinishedAt = index.lastFinishedAt
        nextID = index.nextID
        // A keyframe carries each operation's times: the window starts with its newest finishes.
        recentTimings = index.recentTimings()
        counts = snapshot.counts
        completedBytes = snapshot.completedBytes
        totalBytes = snapshot.totalBytes
        throughput.seed(bytesPerSecond: snapshot.bytesPerSecond, at: snapshot.time)
        evictedCount = snapshot.evictedCount
        log = SharedLog(snapshot.sharedLog.suffix(limits.logEntries))
        isSuspended = snapshot.isSuspended
        maxConcurrentOperationCount = snapshot.maxConcurrentOperationCount
        self.version = version
    }

    // MARK: Reading

    /// An immutable picture at `time`. O(number of chunks + log entries).
    public func snapshot(time: Duration) -> QueueSnapshot {
        assert(deferredLog.isEmpty, "a picture taken while log entries are held back")
        var snapshot = QueueSnapshot(
            time: time, isSuspended: isSuspended, maxConcurrentOperationCount: maxConcurrentOperationCount,
            counts: counts, completedBytes: completedBytes, totalBytes: totalBytes,
            bytesPerSecond: bytesPerSecond(at: time), operations: operations, evictedCount: evictedCount,
            version: version, drainedAt: drainedAt)
        snapshot.sharedLog = log
        snapshot.recentTimings = recentTimings
        snapshot.history = history
        return snapshot
    }

    /// Bytes completed per second over the last `ThroughputWindow.window` of clock time ending
    /// at `time`, by all operations together (finished ones included).
    public func bytesPerSecond(at time: Duration) -> Double {
        throughput.rate(at: time)
    }

    /// When the last tracked operation finished, while every tracked operation has finished;
    /// nil while any is unfinished or none was added.
    public var drainedAt: Duration? {
        counts.total > 0 && counts.finished == counts.total ? lastFinishedAt : nil
    }

    /// The tracked operation with `id`, if not evicted.
    public func operation(id: Int) -> OperationSnapshot? {
        operations.position(ofID: id).map { operations[$0] }
    }

    /// What applying a progress report to operation `id` reads of its row, read in place (a
    /// copy of the whole row retains and releases its strings and arrays); nil if not held.
    func progressBase(
        of id: Int
    ) -> (lifecycle: Lifecycle, startedAt: Duration?, completedUnits: Int64, retries: Int)? {
        guard let position = operations.position(ofID: id) else { return nil }
        return operations.withElement(at: position) { ($0.lifecycle, $0.startedAt, $0.completedUnits, $0.retries) }
    }

    /// Whether changes are recorded as events for `drainEvents()` (the store's own reader;
    /// other readers of a `QueueMonitor` get their own copy of each event).
    public var recordsEvents: Bool {
        get { eventQueues.contains { $0.reader == 0 } }
        set { setReading(newValue, reader: 0) }
    }

    /// Starts collecting a `MonitorTally` (finishes and bytes from now on).
    public mutating func startTally() {
        startTally(reader: 0)
    }

    /// The tally so far with the current counts and settings; forgets the finish timings handed
    /// over. Nil unless collecting.
    public mutating func takeTally() -> MonitorTally? {
        takeTally(reader: 0)
    }

    /// Hands over and forgets the recorded events.
    public mutating func drainEvents() -> [MonitorEvent] {
        drainEvents(reader: 0)
    }
}
