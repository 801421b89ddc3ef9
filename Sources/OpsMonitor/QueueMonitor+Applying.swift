import Dispatch
import DequeModule
import Foundation
import OpsKit
import Synchronization

extension QueueMonitor {
    // MARK: Applying (under the state lock, in recording order)

    /// The background applier's run: everything pending, a slice at a time, so a reader never
    /// waits behind more than one slice of a low-priority thread's work.
    func applyPending() {
        var more = true
        while more {
            var released = Released()
            more = state.withLock { state -> Bool in
                // The inbox is taken only once the backlog is done: every take contends with
                // the recording threads for the inbox lock (and a contended lock sleeps in the
                // kernel). It ends only after a take found nothing, which re-arms scheduling.
                if state.backlog.isEmpty { takeInbox(into: &state) }
                guard !state.backlog.isEmpty else {
                    state.store.stopDeferringLog()
                    return false
                }
                // Log entries wait for the end of the backlog (a reader between two slices
                // applies the rest first): those the rest pushes out of the log are never built.
                state.store.defersLog = true
                // Taken out of the state while it is applied (one owner, changed in place).
                var backlog = ChangeChunks()
                swap(&backlog, &state.backlog)
                backlog.removeFirst(upTo: Self.applySlice) { apply($0, to: &state, releasing: &released) }
                swap(&backlog, &state.backlog)
                return true
            }
            released.invalidate()
        }
    }

    /// Moves the inbox to the end of the backlog (under the state lock, so order is kept).
    func takeInbox(into state: inout State) {
        var (changes, steps) = recorder.inbox.withLock { box in
            box.applyScheduled = false
            box.taken &+= UInt64(box.changes.count)
            defer {
                box.changes = ChangeChunks()
                box.steps = BacklogSteps()
            }
            return (box.changes, box.steps)
        }
        guard !changes.isEmpty else { return }
        if state.backlog.isEmpty {
            state.backlogSteps = steps
        } else {
            state.backlogSteps.append(steps)
        }
        state.unbuiltTickets =
            state.countsUnreadOperationsWithoutRows && state.store.eventQueues.isEmpty
            ? UnbuiltTickets(
                state.backlogSteps, finishedOperations: limits.finishedOperations, logEntries: limits.logEntries)
            : UnbuiltTickets()
        state.backlog.append(takingAllOf: &changes)
    }

    /// Applies every change in the backlog (under the state lock), in order; the log entries
    /// that later ones of the backlog push out of the log are never built (`DeferredLog`).
    func applyBacklog(to state: inout State, releasing released: inout Released) {
        state.store.defersLog = true
        var backlog = ChangeChunks()
        swap(&backlog, &state.backlog)
        backlog.removeFirst(upTo: .max) { apply($0, to: &state, releasing: &released) }
        swap(&backlog, &state.backlog)
        state.store.stopDeferringLog()
    }

    /// Runs `body` on the state with every recorded change applied, at the current time.
    @discardableResult
    func withAppliedState<T>(_ body: (inout State, Duration) -> T) -> T {
        var released = Released()
        let result = state.withLock { state -> T in
            takeInbox(into: &state)
            applyBacklog(to: &state, releasing: &released)
            let time = state.ordered(recorder.now)
            sampleProgress(in: &state, time: time)
            return body(&state, time)
        }
        released.invalidate()
        return result
    }

    func apply(
        _ change: consuming PendingChange, to state: inout State, releasing released: inout Released
    ) {
        // Stamped on worker threads before they took the inbox lock, changes can come out of
        // time order; they are applied in inbox order, at non-decreasing times.
        let time = state.ordered(change.time)
        // Consumed: what the change holds is moved into the state, not copied.
        switch consume change {
        case .added(let op, let lifecycle, let ticket, _, let tokens):
            track(op, lifecycle, ticket: ticket, time: time, tokens: tokens, in: &state, releasing: &released)
        case .started(let ticket, _):
            start(ticket: ticket, progress: nil, time: time, in: &state, releasing: &released)
        case .startedReporting(let ticket, _, let progress):
            start(ticket: ticket, progress: progress, time: time, in: &state, releasing: &released)
        case .ready(let ticket, _):
            // Its readiness token is no longer needed (released once the lock is let go).
            let entry = state.tracked.update(ticket: ticket) { tracked -> (Int, UnbuiltRow?) in
                if let token = tracked.tokens.ready {
                    released.append(token)
                    tracked.tokens.ready = nil
                }
                return (tracked.id, tracked.unbuilt)
            }
            guard let (id, unbuilt) = entry else { return }
            if var unbuilt {
                guard unbuilt.lifecycle == .waiting else { return }
                state.store.transition(unbuilt: &unbuilt, to: .ready, time: time)
                state.tracked.update(ticket: ticket) { $0.unbuilt = unbuilt }
            } else if state.store.operation(id: id)?.lifecycle == .waiting {
                state.store.transition(id, to: .ready, time: time)
            }
        case .progressed(let progress, let ticket, _):
            applyReport(progress, ticket: ticket, time: time, in: &state)
        case .finished(let ticket, _):
            finish(ticket: ticket, time: time, in: &state, releasing: &released)
        }
    }

    /// Applies progress report `progress` of the operation of `ticket` at `time` (ordered).
    func applyReport(_ progress: OperationProgress, ticket: UInt64, time: Duration, in state: inout State) {
        guard let (id, op) = state.tracked.update(ticket: ticket, { ($0.id, $0.operation) }) else { return }
        applyProgress(progress, of: op, id: id, time: time, in: &state)
    }

    /// Applies the start of the operation of `ticket`, which `progress` watches if it reports
    /// progress (the token is released if that operation is not tracked).
    func start(
        ticket: UInt64, progress: NSKeyValueObservation?, time: Duration, in state: inout State,
        releasing released: inout Released
    ) {
        let started = state.tracked.update(ticket: ticket) {
            tracked -> (Int, Operation, Tracked.ProgressSource, UnbuiltRow?) in
            if let progress {
                if let previous = tracked.tokens.progress { released.append(previous) }
                tracked.tokens.progress = progress
            }
            return (tracked.id, tracked.operation, tracked.progress, tracked.unbuilt)
        }
        guard let (id, op, source, unbuilt) = started else {
            if let progress { released.append(progress) }
            return
        }
        if var unbuilt {
            state.store.transition(unbuilt: &unbuilt, to: .executing, time: time)
            state.tracked.update(ticket: ticket) { $0.unbuilt = unbuilt }
            return
        }
        state.store.transition(id, to: .executing, time: time)
        if source == .foundation { startSampling(op, id: id, in: &state) }
    }

    func track(
        _ op: Operation, _ lifecycle: Lifecycle, ticket: UInt64, time: Duration, tokens: OperationTokens,
        in state: inout State, releasing released: inout Released
    ) {
        // The entry goes in first (the store takes `nextID` next); a ticket tracked already
        // (an operation found in the queue and told of as added) keeps its entry.
        let id = state.store.nextID
        // One cached answer per class says how its progress is read (most read none).
        let reads = ProgressReporterLookup.source(of: op)
        let reporter = reads == .reporter ? op.progressReporter : nil
        let foundationSource = reads == .foundation ? FoundationProgressSource(op) : nil
        let source: Tracked.ProgressSource =
            reporter != nil ? .reporter : foundationSource != nil ? .foundation : .none
        if source == .none, lifecycle == .waiting || lifecycle == .ready, state.unbuiltTickets.contains(ticket),
            state.store.eventQueues.isEmpty, op is AsyncOperation
        {
            trackUnbuilt(
                op, lifecycle, id: id, ticket: ticket, time: time, tokens: tokens, in: &state, releasing: &released)
            return
        }
        guard state.tracked.insert(Tracked(id: id, operation: op, tokens: tokens, progress: source), ticket: ticket)
        else {
            tokens.release(into: &released)
            return
        }
        let dependencies = op.currentDependencies
        var kind = reporter?.kind ?? .other
        var report = reporter?.reportedProgress
        if let progress = foundationSource?.progress {
            kind = OperationKind(progress)
            report = OperationProgress(progress)
        }
        // An unnamed operation is shown under its class and id: the store keeps the class's
        // shared prefix and builds the text only when it is read.
        let explicit = op.name
        state.store.insert(
            id: id, name: explicit ?? state.typeNames.prefix(of: op), nameAddsID: explicit == nil, kind: kind,
            unit: report?.unit ?? .bytes, lifecycle: lifecycle, totalBytes: report?.totalUnitCount ?? 0,
            dependencies: dependencies.compactMap { state.id(of: $0) }, time: time)
        for dependency in dependencies where state.id(of: dependency) == nil && !dependency.isFinished {
            state.pendingLinks[OperationKey(dependency), default: []].append(id)
        }
        linkWaitingDependents(of: op, id: id, time: time, in: &state)
        if lifecycle == .executing, let report {
            applyProgress(report, of: op, id: id, time: time, in: &state)
        }
        if lifecycle == .executing, reporter == nil { startSampling(op, id: id, last: report, in: &state) }
        watchPlainStart(op, id: id, lifecycle: lifecycle, in: &state)
        if lifecycle == .finished { finish(ticket: ticket, time: time, in: &state, releasing: &released) }
    }

    /// Links the operations added before `op` (id `id`) that depend on it: their dependency
    /// was not tracked yet when they were added.
    func linkWaitingDependents(of op: Operation, id: Int, time: Duration, in state: inout State) {
        guard !state.pendingLinks.isEmpty, let dependents = state.pendingLinks.removeValue(forKey: OperationKey(op))
        else { return }
        for dependent in dependents { state.store.link(dependent, dependsOn: id, time: time) }
    }

    /// Tracks `op` (an `AsyncOperation` reporting no progress, id `id`) counted without a row:
    /// its row would be evicted before anyone could read it (`UnbuiltTickets`).
    func trackUnbuilt(
        _ op: Operation, _ lifecycle: Lifecycle, id: Int, ticket: UInt64, time: Duration, tokens: OperationTokens,
        in state: inout State, releasing released: inout Released
    ) {
        let entry = Tracked(
            id: id, operation: op, tokens: tokens, progress: .none,
            unbuilt: UnbuiltRow(lifecycle: lifecycle, time: time))
        guard state.tracked.insert(consume entry, ticket: ticket) else {
            tokens.release(into: &released)
            return
        }
        state.store.insertUnbuilt(id: id, lifecycle: lifecycle, time: time)
        // Dependents taken before it still link to it (a row that is built).
        linkWaitingDependents(of: op, id: id, time: time, in: &state)
    }

    func finish(
        ticket: UInt64, time: Duration, in state: inout State, releasing released: inout Released
    ) {
        guard let tracked = state.tracked.remove(ticket: ticket) else { return }
        let op = tracked.operation
        tracked.tokens.release(into: &released)
        let (outcome, message) = Self.outcome(of: op)
        if var unbuilt = tracked.unbuilt {
            state.store.transition(unbuilt: &unbuilt, to: .finished, outcome: outcome, time: time)
        } else {
            if !state.sampled.isEmpty { stopSampling(id: tracked.id, time: time, in: &state) }
            if tracked.progress == .reporter, let reporter = op.progressReporter {
                let progress = reporter.reportedProgress
                state.rates.forget(tracked.id)
                state.store.progress(
                    tracked.id, completedBytes: progress.completedUnitCount, totalBytes: progress.totalUnitCount,
                    bytesPerSecond: 0, retries: progress.retries, retryLog: reporter.retryLog, time: time)
            }
            state.store.transition(tracked.id, to: .finished, outcome: outcome, message: message, time: time)
        }
        state.finished.record(op, id: tracked.id, bound: limits.finishedOperations)
        released.keep(op)
    }

    /// Applies a progress report of `op` (id `id`) made at `time`: the rate as reported or
    /// derived, the retry log as it was at this change, and when a retry wait ends.
    func applyProgress(
        _ progress: OperationProgress, of op: Operation, id: Int, time: Duration, in state: inout State
    ) {
        guard let row = state.store.progressBase(of: id) else { return }
        let nextAttemptAt = progress.retryDelay.map { time + $0 }
        let rate: Double
        if let reported = progress.unitsPerSecond {
            rate = reported
        } else if row.lifecycle == .executing {
            rate = state.rates.rate(
                id: id, completed: progress.completedUnitCount, time: time,
                start: (row.startedAt ?? time, row.completedUnits))
        } else {
            rate = 0
        }
        if let nextAttemptAt {
            state.rates.restart(id, at: nextAttemptAt, completed: progress.completedUnitCount)
        }
        // One log entry per failed attempt retried so far.
        let log =
            row.retries != progress.retries
            ? op.progressReporter.map { Array($0.retryLog.prefix(progress.retries)) } : nil
        state.store.progress(
            id, completedBytes: progress.completedUnitCount, totalBytes: progress.totalUnitCount,
            bytesPerSecond: rate, retries: progress.retries, retryLog: log, nextAttemptAt: nextAttemptAt, time: time)
    }

    static func outcome(of op: Operation) -> (Outcome, String?) {
        if let async = op as? AsyncOperation, let outcome = async.outcome {
            switch outcome {
            case .succeeded: return (.succeeded, nil)
            case .failed(let error): return (.failed, "\(error)")
            case .cancelled(let reason): return (.cancelled, reason)
            }
        }
        return op.isCancelled ? (.cancelled, nil) : (.succeeded, nil)
    }
}
