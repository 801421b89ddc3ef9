import OpsKit

extension MonitorStore {
    // MARK: Changes

    /// Starts tracking an operation; returns its id. Only operations counting bytes add to the
    /// queue's byte totals and rate.
    public mutating func add(
        name: String?, kind: OperationKind, unit: ProgressUnit = .bytes, lifecycle: Lifecycle,
        totalBytes total: Int64, dependencies: [Int], time: Duration
    ) -> Int {
        let id = nextID
        insert(
            id: id, name: name, kind: kind, unit: unit, lifecycle: lifecycle, totalBytes: total,
            dependencies: dependencies, time: time)
        return id
    }

    /// Starts tracking an operation under a given `id` (a rebuilt store); ignored if `id` is
    /// not above every id the store has seen (ids only grow: a lower one is tracked, was
    /// evicted or was never added, and the store's order, which keyframes keep, is by id).
    /// With `nameAddsID`, `name` is a class prefix the id completes (`"BlockOperation #"`).
    package mutating func insert(
        id: Int, name: String?, nameAddsID: Bool = false, kind: OperationKind, unit: ProgressUnit = .bytes,
        lifecycle: Lifecycle, totalBytes total: Int64, dependencies: [Int], time: Duration
    ) {
        guard id >= nextID else { return }
        nextID = max(nextID, id + 1)
        // The event's name is built first, and only when someone keeps events: the row is made
        // where it is passed, so it is moved into its chunk, not copied (a copy retains and
        // releases each of its references).
        let added =
            keepsEvents
            ? MonitorEvent.added(
                time: time, id: id,
                name: OperationSnapshot.resolvedName(name, addingID: nameAddsID ? id : nil)
                    ?? OperationSnapshot.defaultName(id: id),
                kind: kind, unit: unit, totalBytes: total, dependencies: dependencies) : nil
        operations.append(
            Self.newRow(
                id: id, name: name, nameAddsID: nameAddsID, kind: kind, unit: unit, lifecycle: lifecycle,
                totalBytes: total, dependencies: dependencies, time: time))
        counts[lifecycle, nil] += 1
        if unit == .bytes { totalBytes += total }
        recordHistory(at: time)
        touch()
        if let added { record(added) }
        if !eventQueues.isEmpty {
            record(.state(time: time, id: id, from: nil, to: lifecycle, outcome: nil, message: nil))
        }
    }

    /// The row of an operation added at `time` (see `insert`).
    private static func newRow(
        id: Int, name: String?, nameAddsID: Bool, kind: OperationKind, unit: ProgressUnit, lifecycle: Lifecycle,
        totalBytes total: Int64, dependencies: [Int], time: Duration
    ) -> OperationSnapshot {
        var row = OperationSnapshot(
            id: id, name: "", kind: kind, unit: unit, lifecycle: lifecycle, totalUnits: total,
            dependencies: dependencies, addedAt: time)
        row.firstChange = StateChange(time: time, lifecycle: lifecycle)
        if nameAddsID, let name { row.nameByClass(prefix: name) } else { row.explicitName = name }
        return row
    }

    /// Adds `dependency` to operation `id`'s dependency list (a link resolved late: the
    /// dependency was taken by the queue after `id`); ignored if already there.
    public mutating func link(_ id: Int, dependsOn dependency: Int, time: Duration) {
        guard let position = operations.position(ofID: id), !operations[position].dependencies.contains(dependency)
        else { return }
        operations[position].dependencies.append(dependency)
        record(.linked(time: time, id: id, dependencies: [dependency]))
        touch()
    }

    /// Moves operation `id` to `lifecycle`; moves out of `finished` and repeats are ignored.
    public mutating func transition(
        _ id: Int, to lifecycle: Lifecycle, outcome: Outcome? = nil, message: String? = nil, time: Duration
    ) {
        guard let position = operations.position(ofID: id) else { return }
        let historyLimit = limits.historyPerOperation
        // Converted once (a division) for the row's time and its history's change.
        let nanoseconds = time.nanoseconds
        // A held-back entry reads the name and the finish's message from the row when built.
        let defers = defersLog && (message == nil || lifecycle == .finished)
        // Changed in place: copying an OperationSnapshot out and back costs a retain and a
        // release per reference field, on every change of every operation.
        let change = operations.update(at: position) {
            op -> (
                from: Lifecycle, name: String?, nameAddsID: Bool, missing: Int64, kind: OperationKind,
                addedAt: Duration, startedAt: Duration?
            )? in
            guard op.lifecycle != .finished, op.lifecycle != lifecycle else { return nil }
            let from = op.lifecycle
            let counted = op.unit == .bytes
            var missing: Int64 = 0
            op.lifecycle = lifecycle
            switch lifecycle {
            case .executing:
                op.setStartedAt(nanoseconds: nanoseconds)
            case .finished:
                op.setFinishedAt(nanoseconds: nanoseconds)
                op.outcome = outcome
                op.message = message
                op.unitsPerSecond = 0
                op.nextAttemptAt = nil
                if outcome == .succeeded, op.totalUnits > op.completedUnits {
                    if counted { missing = op.totalUnits - op.completedUnits }
                    op.completedUnits = op.totalUnits
                }
            case .waiting, .ready:
                break
            }
            op.appendChange(
                StateChange(nanoseconds: nanoseconds, lifecycle: lifecycle, outcome: outcome), keeping: historyLimit)
            return (from, defers ? nil : op.storedName, op.nameAddsID, missing, op.kind, op.addedAt, op.startedAt)
        }
        guard let change else { return }
        countTransition(
            from: change.from, to: lifecycle, outcome: outcome, kind: change.kind, missing: change.missing,
            addedAt: change.addedAt, startedAt: change.startedAt, time: time)
        if defers {
            deferredLog.append(
                DeferredLog.Entry(time: time, id: id, from: change.from, to: lifecycle, outcome: outcome),
                keeping: limits.logEntries)
        } else {
            appendLog(
                LogEntry(
                    time: time, operationID: id, name: change.name, nameAddsID: change.nameAddsID, from: change.from,
                    to: lifecycle, outcome: outcome, message: message))
        }
        // No event is built when nobody reads events (the common case: a dashboard alone).
        if !eventQueues.isEmpty {
            record(.state(time: time, id: id, from: change.from, to: lifecycle, outcome: outcome, message: message))
        }
        if lifecycle == .finished {
            finishedInStore += 1
            evictIfNeeded()
        }
        touch()
    }

    /// A transition's share of the totals (a row's or an unbuilt operation's): the counts, the
    /// per-second history, and a finish's share (`recordFinish`).
    mutating func countTransition(
        from: Lifecycle, to lifecycle: Lifecycle, outcome: Outcome?, kind: OperationKind, missing: Int64,
        addedAt: Duration, startedAt: Duration?, time: Duration
    ) {
        counts[from, nil] -= 1
        counts[lifecycle, outcome] += 1
        recordHistory(at: time, finished: lifecycle == .finished ? outcome ?? .succeeded : nil, bytes: missing)
        if lifecycle == .finished {
            recordFinish(
                outcome: outcome ?? .succeeded, kind: kind, missing: missing, addedAt: addedAt, startedAt: startedAt,
                time: time)
        }
    }

    /// A finish's share of the totals: the tallies, the recent timings, the bytes a success
    /// completed (`missing`: what its progress had not reported) and the throughput.
    private mutating func recordFinish(
        outcome: Outcome, kind: OperationKind, missing: Int64, addedAt: Duration, startedAt: Duration?, time: Duration
    ) {
        if !tallies.isEmpty {
            let timing = FinishedTiming(
                outcome: outcome, wait: startedAt.map { $0 - addedAt }, duration: startedAt.map { time - $0 })
            for index in tallies.indices {
                tallies[index].tally.recordTransfer(missing, kind: kind)
                tallies[index].tally.recordFinish(timing)
            }
        }
        if let startedAt {
            recentTimings.record(kind: kind, wait: startedAt - addedAt, run: time - startedAt)
        }
        completedBytes += missing
        throughput.record(missing, at: time)
        if lastFinishedAt.isShorter(than: time) { lastFinishedAt = time }
    }

    /// Records progress of operation `id` (and its total, when given); ignored once finished.
    /// `nextAttemptAt` is set while it waits out a retry back-off.
    public mutating func progress(
        _ id: Int, completedBytes completed: Int64, totalBytes newTotal: Int64? = nil, bytesPerSecond rate: Double,
        retries: Int, retryLog: [String]? = nil, nextAttemptAt: Duration? = nil, time: Duration
    ) {
        guard let position = operations.position(ofID: id) else { return }
        let change = operations.update(at: position) {
            op -> (
                completedDelta: Int64, totalDelta: Int64, total: Int64, rate: Double, retryName: String?,
                kind: OperationKind, nextAttemptAt: Duration?
            )? in
            guard op.lifecycle != .finished else { return nil }
            let counted = op.unit == .bytes
            let total = newTotal ?? op.totalUnits
            let completedDelta = counted ? completed - op.completedUnits : 0
            let totalDelta = counted ? total - op.totalUnits : 0
            let newRate = op.lifecycle == .executing ? rate : 0
            let newNext = op.lifecycle == .executing ? nextAttemptAt : nil
            // The same values again (the final report the monitor applies at a finish, after
            // the operation's own last one) change nothing and make no event.
            guard
                completed != op.completedUnits || total != op.totalUnits || newRate != op.unitsPerSecond
                    || retries != op.retries || newNext != op.nextAttemptAt
            else { return nil }
            op.completedUnits = completed
            op.totalUnits = total
            op.unitsPerSecond = newRate
            op.nextAttemptAt = newNext
            var retryName: String?
            if retries != op.retries, let retryLog {
                op.retryLog = retryLog
                if retryLog.last != nil { retryName = op.name }
            }
            op.retries = retries
            return (completedDelta, totalDelta, op.totalUnits, newRate, retryName, op.kind, op.nextAttemptAt)
        }
        guard let change else { return }
        for index in tallies.indices { tallies[index].tally.recordTransfer(change.completedDelta, kind: change.kind) }
        completedBytes += change.completedDelta
        totalBytes += change.totalDelta
        throughput.record(change.completedDelta, at: time)
        recordHistory(at: time, bytes: change.completedDelta)
        if let name = change.retryName, let last = retryLog?.last {
            appendLog(LogEntry(time: time, kind: .retry, operationID: id, text: "\(name): \(last), retry \(retries)"))
        }
        record(
            .progress(
                time: time, id: id, completedBytes: completed, totalBytes: change.total, bytesPerSecond: change.rate,
                retries: retries, nextAttemptAt: change.nextAttemptAt,
                retryError: change.retryName == nil ? nil : retryLog?.last))
        touch()
    }

    /// Records a queue setting change or an operator action.
    public mutating func queueChanged(
        isSuspended: Bool? = nil, maxConcurrent: Int? = nil, reason: String, time: Duration
    ) {
        if let isSuspended { self.isSuspended = isSuspended }
        if let maxConcurrent { self.maxConcurrentOperationCount = maxConcurrent }
        appendLog(
            LogEntry(time: time, kind: isSuspended == nil && maxConcurrent == nil ? .action : .queue, text: reason))
        record(
            .queue(
                time: time, isSuspended: self.isSuspended,
                maxConcurrentOperationCount: self.maxConcurrentOperationCount, counts: counts, reason: reason))
        touch()
    }

    // MARK: Internals

    mutating func touch() { version &+= 1 }

    /// Adds a change at `time` to the per-second history, with the levels after it.
    mutating func recordHistory(at time: Duration, finished outcome: Outcome? = nil, bytes: Int64 = 0) {
        history.record(
            at: time, finished: outcome, bytes: bytes, running: counts.executing, waiting: counts.waiting + counts.ready
        )
    }

    mutating func record(_ event: MonitorEvent) {
        for index in eventQueues.indices where !eventQueues[index].overflowed {
            if eventQueues[index].events.count < eventQueues[index].limit {
                eventQueues[index].events.append(event)
            } else {
                eventQueues[index].overflowed = true
            }
        }
    }

    /// Adds `entry` to the log after every entry held back.
    mutating func appendLog(_ entry: LogEntry) {
        buildDeferredLog()
        log.append(entry, keeping: limits.logEntries)
    }

    /// Builds the log entries held back (`defersLog`), oldest first; each reads its operation's
    /// name and a finish's message from the row, so this runs before any row is evicted.
    mutating func buildDeferredLog() {
        guard !deferredLog.isEmpty else { return }
        // Taken out while it is read (one owner: emptied in place, its room kept).
        var deferred = DeferredLog()
        swap(&deferred, &deferredLog)
        defer { swap(&deferred, &deferredLog) }
        deferred.takeAll { entry in
            let row = operations.position(ofID: entry.id).map { position in
                operations.withElement(at: position) { ($0.storedName, $0.nameAddsID, $0.message) }
            }
            assert(row != nil, "a held-back log entry of an operation no longer held")
            log.append(
                LogEntry(
                    time: entry.time, operationID: entry.id, name: row?.0, nameAddsID: row?.1 ?? false,
                    from: entry.from, to: entry.to, outcome: entry.outcome,
                    message: entry.to == .finished ? row?.2 : nil),
                keeping: limits.logEntries)
        }
    }

    /// Builds the entries held back and stops holding them back: the log is whole again.
    mutating func stopDeferringLog() {
        buildDeferredLog()
        defersLog = false
    }

    /// Drops the oldest finished operations once the store holds more than the bound plus some
    /// slack, so eviction is an amortized O(1) per finish.
    mutating func evictIfNeeded() {
        // The slack grows with the store: a pass copies every kept operation, so it must be
        // paid for by at least as many finishes (100,000 unfinished operations and a 10,000
        // bound made each pass copy 100,000 rows every 1,250 finishes).
        let slack = max(64, limits.finishedOperations / 2, (operations.count - finishedInStore) / 2)
        guard finishedInStore > limits.finishedOperations + slack else { return }
        // The entries held back read their rows.
        buildDeferredLog()
        var excess = finishedInStore - limits.finishedOperations
        var kept = ChunkedArray<OperationSnapshot>()
        for op in operations {
            if excess > 0, op.lifecycle == .finished {
                excess -= 1
                evictedCount += 1
                finishedInStore -= 1
                continue
            }
            kept.append(op)
        }
        operations = kept
    }
}
