import OpsMonitor

/// What one JSON Lines event line says, as `JSONLinesDecoder` reads it.
public enum EventLine: Sendable, Equatable {
    /// A monitor event (`added`, `state`, `progress`, `queue`).
    case event(MonitorEvent)
    /// The final `summary` line of a run.
    case summary(RunSummary)
    /// `snapshot_begin`: a keyframe starts.
    case keyframeBegin(KeyframeHeader)
    /// `snapshot_op`: one operation of a keyframe.
    case keyframeOperation(OperationSnapshot)
    /// `snapshot_log`: one log entry of a keyframe.
    case keyframeLog(LogEntry)
    /// `snapshot_end`: the keyframe consistent with `seq` is complete.
    case keyframeEnd(seq: UInt64)
    /// An event this decoder does not know (e.g. a protocol's `welcome`); its fields are in
    /// `DecodedLine.fields`.
    case other(event: String)
}

/// One decoded line: what it says, its `seq` when it carries one, and every field (unknown
/// ones included) for layers that read more.
public struct DecodedLine: Sendable, Equatable {
    public var line: EventLine
    /// The line's sequence number on the wire, if it has one.
    public var seq: UInt64?
    /// All fields of the line's object. Built on each read: read it once per line, and only
    /// when `line` does not already say what is needed.
    public var fields: [String: JSONValue] {
        get { members.dictionary }
        set { members = FieldList(newValue) }
    }
    var members: FieldList

    public init(line: EventLine, seq: UInt64?, fields: [String: JSONValue]) {
        self.init(line: line, seq: seq, members: FieldList(fields))
    }

    init(line: EventLine, seq: UInt64?, members: FieldList) {
        self.line = line
        self.seq = seq
        self.members = members
    }

    public static func == (lhs: DecodedLine, rhs: DecodedLine) -> Bool {
        lhs.line == rhs.line && lhs.seq == rhs.seq && lhs.fields == rhs.fields
    }
}

/// The totals of a run's `summary` line.
public struct RunSummary: Sendable, Equatable {
    public var time: Duration
    public var operations: Int
    public var counts: StateCounts
    public var completedBytes: Int64
    public var totalBytes: Int64
    public var duration: Duration
    public var interrupted: Bool

    public init(
        time: Duration, operations: Int, counts: StateCounts, completedBytes: Int64, totalBytes: Int64,
        duration: Duration, interrupted: Bool
    ) {
        self.time = time
        self.operations = operations
        self.counts = counts
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.duration = duration
        self.interrupted = interrupted
    }
}

/// The queue-level part of a keyframe (`snapshot_begin`).
public struct KeyframeHeader: Sendable, Equatable {
    public var time: Duration
    /// The last event `seq` the keyframe includes.
    public var seq: UInt64
    public var isSuspended: Bool
    public var maxConcurrentOperationCount: Int
    public var counts: StateCounts
    public var completedBytes: Int64
    public var totalBytes: Int64
    public var bytesPerSecond: Double
    public var evictedCount: Int
    /// How many `snapshot_op` and `snapshot_log` lines follow.
    public var operationCount: Int
    public var logCount: Int
    public var version: UInt64
    /// The queue's per-second history up to the keyframe (`history`); nil from a writer that
    /// sends none.
    package var history: QueueHistory?

    public init(
        time: Duration, seq: UInt64, isSuspended: Bool, maxConcurrentOperationCount: Int, counts: StateCounts,
        completedBytes: Int64, totalBytes: Int64, bytesPerSecond: Double, evictedCount: Int,
        operationCount: Int, logCount: Int, version: UInt64
    ) {
        self.time = time
        self.seq = seq
        self.isSuspended = isSuspended
        self.maxConcurrentOperationCount = maxConcurrentOperationCount
        self.counts = counts
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
        self.evictedCount = evictedCount
        self.operationCount = operationCount
        self.logCount = logCount
        self.version = version
    }

    /// The `snapshot_op` and `snapshot_log` lines the header says follow, added without
    /// overflowing (a hostile file may claim `Int.max` of each): `Int.max` at most.
    package var lineCount: Int {
        let (sum, overflow) = operationCount.addingReportingOverflow(logCount)
        return overflow ? (operationCount < 0 ? Int.min : Int.max) : sum
    }
}
