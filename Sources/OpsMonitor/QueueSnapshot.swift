/// Counts of operations by dashboard state.
public struct StateCounts: Sendable, Equatable {
    public var waiting = 0
    public var ready = 0
    public var executing = 0
    public var succeeded = 0
    public var failed = 0
    public var cancelled = 0

    public init(
        waiting: Int = 0, ready: Int = 0, executing: Int = 0,
        succeeded: Int = 0, failed: Int = 0, cancelled: Int = 0
    ) {
        self.waiting = waiting
        self.ready = ready
        self.executing = executing
        self.succeeded = succeeded
        self.failed = failed
        self.cancelled = cancelled
    }

    /// Operations that have finished, whatever the outcome.
    public var finished: Int { succeeded + failed + cancelled }
    /// Every operation counted.
    public var total: Int { waiting + ready + executing + finished }
}

/// One line of the monitor's bounded event log.
public struct LogEntry: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable { case state, queue, action, retry }
    public var time: Duration
    public var kind: Kind
    /// Operation id, when the entry is about one.
    public var operationID: Int?
    /// What the line says; a state change's text is built only when read (most are never shown).
    public var text: String {
        get {
            switch detail {
            case .text(let text):
                return text
            case .state(let stored, let addsID, let from, let to, let outcome, let message):
                let state = to == .finished ? (outcome?.rawValue ?? "finished") : to.rawValue
                let name = resolvedName(stored, addsID)
                return
                    "\(name ?? OperationSnapshot.defaultName(id: operationID ?? 0)): \(from.rawValue) → \(state)\(message.map { " (\($0))" } ?? "")"
            }
        }
        set { detail = .text(newValue) }
    }

    /// For a state change: the operation's name, the state left and the state entered (with its
    /// outcome and message when finished); nil for other entries.
    public var stateChange: (name: String, from: Lifecycle, to: Lifecycle, outcome: Outcome?, message: String?)? {
        stateParts.map {
            ($0.name ?? OperationSnapshot.defaultName(id: operationID ?? 0), $0.from, $0.to, $0.outcome, $0.message)
        }
    }

    private enum Detail: Sendable {
        case text(String)
        /// `name` as the operation's snapshot stores it (with `addsID`, a class prefix the id
        /// completes: see `OperationSnapshot.storedName`), built into text only when read.
        case state(name: String?, addsID: Bool, from: Lifecycle, to: Lifecycle, outcome: Outcome?, message: String?)
    }

    /// `stored`, completed with the operation's id when `addsID`.
    private func resolvedName(_ stored: String?, _ addsID: Bool) -> String? {
        OperationSnapshot.resolvedName(stored, addingID: addsID ? operationID ?? 0 : nil)
    }

    private var detail: Detail

    /// The parts of a state change entry (nil for a text entry), for writing it structurally.
    package var stateParts: (name: String?, from: Lifecycle, to: Lifecycle, outcome: Outcome?, message: String?)? {
        storedStateParts.map { (resolvedName($0.name, $0.addsID), $0.from, $0.to, $0.outcome, $0.message) }
    }

    /// The parts of a state change entry as stored (nil for a text entry): the name, which is
    /// nil for "op-<id>" and, with `addsID`, a class prefix the id completes; nothing is built.
    package var storedStateParts:
        (name: String?, addsID: Bool, from: Lifecycle, to: Lifecycle, outcome: Outcome?, message: String?)?
    {
        guard case .state(let stored, let addsID, let from, let to, let outcome, let message) = detail else {
            return nil
        }
        return (stored, addsID, from, to, outcome, message)
    }

    public init(time: Duration, kind: Kind, operationID: Int? = nil, text: String) {
        self.time = time
        self.kind = kind
        self.operationID = operationID
        self.detail = .text(text)
    }

    /// A state change of operation `operationID` named `name`.
    /// With `nameAddsID`, `name` is a class prefix the id completes (`"BlockOperation #"`).
    package init(
        time: Duration, operationID: Int, name: String?, nameAddsID: Bool = false, from: Lifecycle, to: Lifecycle,
        outcome: Outcome?, message: String?
    ) {
        self.time = time
        self.kind = .state
        self.operationID = operationID
        self.detail = .state(name: name, addsID: nameAddsID, from: from, to: to, outcome: outcome, message: message)
    }

    /// Compared field by field, never by building the text (comparing two 500-entry logs that
    /// way cost ~500 allocations a frame); a class-and-id name is built only to compare it
    /// with a name stored whole.
    public static func == (lhs: LogEntry, rhs: LogEntry) -> Bool {
        guard lhs.time == rhs.time, lhs.kind == rhs.kind, lhs.operationID == rhs.operationID else { return false }
        switch (lhs.detail, rhs.detail) {
        case (.text(let left), .text(let right)):
            return left == right
        case (
            .state(let leftName, let leftAdds, let leftFrom, let leftTo, let leftOutcome, let leftMessage),
            .state(let rightName, let rightAdds, let rightFrom, let rightTo, let rightOutcome, let rightMessage)
        ):
            guard leftFrom == rightFrom, leftTo == rightTo, leftOutcome == rightOutcome, leftMessage == rightMessage
            else { return false }
            if leftAdds == rightAdds { return leftName == rightName }
            return lhs.resolvedName(leftName, leftAdds) == rhs.resolvedName(rightName, rightAdds)
        default:
            return false
        }
    }
}

/// An immutable picture of a queue and its operations, handed out by `QueueMonitor`.
///
/// Copying a snapshot is O(1); `operations` is ordered by id.
public struct QueueSnapshot: Sendable {
    /// Clock time since the monitor started.
    public var time: Duration
    public var isSuspended: Bool
    public var maxConcurrentOperationCount: Int
    public var counts: StateCounts
    /// Sum of completed and total bytes over all tracked operations (evicted ones included).
    public var completedBytes: Int64
    public var totalBytes: Int64
    /// Bytes completed per second by all operations together over the last two seconds of
    /// clock time (many short operations included, whose own rates are rarely seen).
    public var bytesPerSecond: Double
    /// Tracked operations, by id. Finished ones may be evicted past the monitor's bound.
    public var operations: ChunkedArray<OperationSnapshot>
    /// Finished operations dropped from `operations` to keep memory bounded.
    public var evictedCount: Int
    /// Newest last. Built from `sharedLog` when read (O(entries)): per-frame readers use that.
    public var log: [LogEntry] {
        get { Array(sharedLog) }
        set { sharedLog = SharedLog(newValue) }
    }
    /// The log as the monitor keeps it, shared with it and with every other picture (O(1) to copy).
    package var sharedLog: SharedLog
    /// Increases whenever anything in the snapshot changed.
    public var version: UInt64
    /// When the last operation finished, while every tracked operation has finished (the run
    /// is over unless more work is added); nil while any is unfinished or none was added.
    public var drainedAt: Duration?
    /// Waits and run times of the last `RecentTimings.capacity` finishes, for percentiles.
    package var recentTimings = RecentTimings()
    /// Per-second aggregates over the monitor's history window, up to the newest change.
    package var history = QueueHistory()

    /// Whether every tracked operation has finished.
    public var isDrained: Bool { drainedAt != nil }

    /// Bytes completed per second over the whole run: up to when the last operation finished,
    /// or up to `time` while any is unfinished.
    public var averageBytesPerSecond: Double {
        let elapsed = (drainedAt ?? time) / .seconds(1)
        return elapsed > 0 ? Double(completedBytes) / elapsed : 0
    }

    public init(
        time: Duration = .zero, isSuspended: Bool = false, maxConcurrentOperationCount: Int = 1,
        counts: StateCounts = .init(), completedBytes: Int64 = 0, totalBytes: Int64 = 0,
        bytesPerSecond: Double = 0, operations: ChunkedArray<OperationSnapshot> = .init(),
        evictedCount: Int = 0, log: [LogEntry] = [], version: UInt64 = 0, drainedAt: Duration? = nil
    ) {
        self.time = time
        self.isSuspended = isSuspended
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.counts = counts
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.operations = operations
        self.evictedCount = evictedCount
        self.sharedLog = SharedLog(log)
        self.version = version
        self.drainedAt = drainedAt
    }

    /// The operation with this id, in O(log n).
    public func operation(id: Int) -> OperationSnapshot? {
        position(ofID: id).map { operations[$0] }
    }

    /// Where operation `id` is in `operations`, if there; O(log n), nothing copied.
    package func position(ofID id: Int) -> Int? {
        operations.position(ofID: id)
    }
}
