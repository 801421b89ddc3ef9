import OpsMonitor

/// Rebuilds a `QueueSnapshot` from monitor events and keyframes, the way `QueueMonitor`'s own
/// store would: the events are applied to a `MonitorStore` with the same limits, so counts,
/// bytes, rates, per-operation history, retry logs, the log and eviction follow the same rules.
public struct EventSnapshotBuilder: Sendable {
    /// The operation an `added` event announced, until its first `state` event names its state.
    private struct Announced: Sendable {
        var name: String
        var kind: OperationKind
        var unit: ProgressUnit
        var totalBytes: Int64
        var dependencies: [Int]
        var time: Duration
    }

    /// A keyframe being read: its operations indexed as they come (`MonitorStore.KeyframeIndex`),
    /// so its last line builds the store without going through them again.
    private struct Assembly: Sendable {
        var header: KeyframeHeader
        var operations = ChunkedArray<OperationSnapshot>()
        var index = MonitorStore.KeyframeIndex()
        var log: [LogEntry] = []
    }

    public let limits: MonitorStore.Limits
    private var store: MonitorStore
    private var announced: [Int: Announced] = [:]
    private var assembly: Assembly?
    /// The newest event time seen: the time the snapshot shows.
    public private(set) var time: Duration = .zero
    /// The `seq` of the last keyframe loaded, when one was.
    public private(set) var keyframeSeq: UInt64?
    /// How many operations the last line applied went through: one for a keyframe's operation
    /// line, none for its last line (the store is built from the index its operation lines
    /// built), all of them for a whole snapshot loaded at once (`load(_:)`). What bounds a
    /// replay frame's work: the cursor looks at the clock between lines.
    package private(set) var lastLineWork = 0

    /// An empty picture of a queue with these settings.
    public init(limits: MonitorStore.Limits = .init(), isSuspended: Bool = false, maxConcurrentOperationCount: Int = 1)
    {
        self.limits = limits
        store = MonitorStore(limits: limits)
        store.isSuspended = isSuspended
        store.maxConcurrentOperationCount = maxConcurrentOperationCount
    }

    /// Whether a keyframe has begun and not ended yet.
    public var isReadingKeyframe: Bool { assembly != nil }

    /// Increases whenever the picture changed.
    public var version: UInt64 { store.version }

    /// The rebuilt picture.
    public func snapshot() -> QueueSnapshot {
        store.snapshot(time: time)
    }

    /// The picture if it changed since `version`.
    public func snapshot(ifChangedSince version: UInt64) -> QueueSnapshot? {
        store.version == version ? nil : snapshot()
    }

    /// Moves the shown time forward to `time` (a heartbeat's clock) without changing anything else.
    public mutating func advance(to time: Duration) {
        self.time = max(self.time, time)
    }

    /// Applies one monitor event.
    public mutating func apply(_ event: MonitorEvent) {
        time = max(time, event.time)
        switch event {
        case .added(let time, let id, let name, let kind, let unit, let total, let dependencies):
            announced[id] = Announced(
                name: name, kind: kind, unit: unit, totalBytes: total, dependencies: dependencies, time: time)
        case .linked(let time, let id, let dependencies):
            if let known = announced[id] {
                announced[id]?.dependencies += dependencies.filter { !known.dependencies.contains($0) }
            } else {
                for dependency in dependencies { store.link(id, dependsOn: dependency, time: time) }
            }
        case .state(let time, let id, nil, let to, _, _):
            let known = announced.removeValue(forKey: id)
            store.insert(
                id: id, name: OperationSnapshot.explicitName(known?.name, id: id), kind: known?.kind ?? .other,
                unit: known?.unit ?? .bytes, lifecycle: to, totalBytes: known?.totalBytes ?? 0,
                dependencies: known?.dependencies ?? [],
                time: known?.time ?? time)
        case .state(let time, let id, _, let to, let outcome, let message):
            store.transition(id, to: to, outcome: outcome, message: message, time: time)
        case .progress(let time, let id, let completed, let total, let rate, let retries, let next, let error):
            // A new retry's error joins the operation's retry log (and the log pane), as in
            // the monitor's own store.
            var retryLog: [String]?
            if let error, let known = store.operation(id: id)?.retryLog, retries > known.count {
                retryLog = known + [error]
            }
            store.progress(
                id, completedBytes: completed, totalBytes: total, bytesPerSecond: rate, retries: retries,
                retryLog: retryLog, nextAttemptAt: next, time: time)
        case .queue(let time, let suspended, let limit, _, let reason):
            // The monitor records a setting only when it changed; an action changes none.
            if suspended != store.isSuspended {
                store.queueChanged(isSuspended: suspended, reason: reason, time: time)
            } else if limit != store.maxConcurrentOperationCount {
                store.queueChanged(maxConcurrent: limit, reason: reason, time: time)
            } else {
                store.queueChanged(reason: reason, time: time)
            }
        }
    }

    /// Applies one decoded line: events and keyframe lines change the picture; summaries and
    /// unknown events do not. Throws when keyframe lines come out of order or disagree with
    /// their header.
    public mutating func apply(_ line: EventLine) throws(EventLineError) {
        lastLineWork = 0
        switch line {
        case .event(let event):
            guard assembly == nil else { throw EventLineError(.badLine, "event inside a snapshot") }
            apply(event)
        case .keyframeBegin(let header):
            assembly = Assembly(header: header)
        case .keyframeOperation(let op):
            guard assembly != nil else { throw EventLineError(.badLine, "snapshot_op outside a snapshot") }
            if let last = assembly?.operations.last, last.id >= op.id {
                throw EventLineError(.badLine, "snapshot_op #\(op.id) out of order")
            }
            assembly?.index.add(op)
            assembly?.operations.append(op)
            lastLineWork = 1
        case .keyframeLog(let entry):
            guard assembly != nil else { throw EventLineError(.badLine, "snapshot_log outside a snapshot") }
            assembly?.log.append(entry)
        case .keyframeEnd(let seq):
            guard let done = assembly else { throw EventLineError(.badLine, "snapshot_end without snapshot_begin") }
            assembly = nil
            try load(done, endSeq: seq)
        case .summary, .other:
            break
        }
    }

    /// Replaces the picture with a whole snapshot (a keyframe read another way).
    public mutating func load(_ snapshot: QueueSnapshot) {
        load(snapshot, index: nil)
    }

    /// Replaces the picture with `snapshot`, whose operations `index` indexes when given (else
    /// they are indexed now, in one pass).
    private mutating func load(_ snapshot: QueueSnapshot, index: MonitorStore.KeyframeIndex?) {
        let version = store.version &+ 1
        if let index {
            store = MonitorStore(snapshot: snapshot, index: index, limits: limits, version: version)
        } else {
            store = MonitorStore(snapshot: snapshot, limits: limits, version: version)
            lastLineWork = snapshot.operations.count
        }
        announced = [:]
        time = snapshot.time
    }

    private mutating func load(_ done: Assembly, endSeq: UInt64) throws(EventLineError) {
        let header = done.header
        guard endSeq == header.seq else {
            throw EventLineError(.badLine, "snapshot_end seq \(endSeq) does not match snapshot_begin seq \(header.seq)")
        }
        guard done.operations.count == header.operationCount else {
            throw EventLineError(
                .badLine, "snapshot has \(done.operations.count) operations, header says \(header.operationCount)")
        }
        var snapshot = QueueSnapshot(
            time: header.time, isSuspended: header.isSuspended,
            maxConcurrentOperationCount: header.maxConcurrentOperationCount, counts: header.counts,
            completedBytes: header.completedBytes, totalBytes: header.totalBytes,
            bytesPerSecond: header.bytesPerSecond, operations: done.operations,
            evictedCount: header.evictedCount, log: done.log)
        snapshot.history = header.history ?? QueueHistory(window: limits.historySeconds)
        load(snapshot, index: done.index)
        keyframeSeq = header.seq
    }
}
