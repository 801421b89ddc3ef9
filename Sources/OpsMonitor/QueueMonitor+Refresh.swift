import OpsKit

extension QueueMonitor {
    /// Brings `picture` up to date if anything changed since `version` (nil: always) and returns
    /// true; returns false and leaves `picture` as it is otherwise (so an idle dashboard does no
    /// work).
    ///
    /// `picture` is let go of before the changes are applied: when it was the last holder of the
    /// store's previous picture (a dashboard that hands back the one it showed), the store
    /// changes its rows, log and timings in place instead of copying each chunk it touches
    /// first, and no old chunk is freed. It is then replaced by the new picture, or, when
    /// nothing changed after all (a due reading of running operations' `Progress` found them
    /// where they were), by the store's picture at `picture`'s time, which is the same picture
    /// (whatever a caller changed in it aside).
    package func refresh(_ picture: inout QueueSnapshot, ifChangedSince version: UInt64?) -> Bool {
        var released = Released()
        released.keepsOperations = true
        let changed = state.withLock { state -> Bool in
            takeInbox(into: &state)
            if let version, state.backlog.isEmpty, state.store.version == version,
                !Self.isSampleDue(in: state, time: recorder.now)
            {
                return false
            }
            let shownTime = picture.time
            picture = QueueSnapshot()
            applyBacklogCoalescing(to: &state, releasing: &released)
            let time = state.ordered(recorder.now)
            sampleProgress(in: &state, time: time)
            let unchanged = version == state.store.version
            picture = state.store.snapshot(time: unchanged ? shownTime : time)
            return !unchanged
        }
        released.invalidate()
        // The finished operations and tokens let go of are freed by the app's worker threads
        // as they record (what they did not take since the last refresh is freed here).
        let stale = recorder.park(Parked(operations: released.operations, tokens: released.tokens))
        _ = consume stale
        return changed
    }

    /// Applies the backlog, only the newest of each operation's run of progress reports
    /// (`ProgressCoalescer`) unless the store records events.
    private func applyBacklogCoalescing(to state: inout State, releasing released: inout Released) {
        guard state.store.eventQueues.isEmpty else {
            applyBacklog(to: &state, releasing: &released)
            return
        }
        // Taken out of the state while it is used (one owner: changed in place, no copy).
        var coalescer = ProgressCoalescer()
        swap(&coalescer, &state.coalescer)
        defer { swap(&coalescer, &state.coalescer) }
        state.store.defersLog = true
        defer { state.store.stopDeferringLog() }
        var backlog = ChangeChunks()
        swap(&backlog, &state.backlog)
        defer { swap(&backlog, &state.backlog) }
        backlog.removeFirst(upTo: .max) { change in
            if case .progressed(let progress, let ticket, let time) = change {
                if let earlier = coalescer.hold((ticket, progress, time)) {
                    applyReport(earlier.progress, ticket: ticket, time: state.ordered(earlier.time), in: &state)
                }
                return
            }
            if !coalescer.isEmpty, let held = coalescer.take(change.ticket) {
                applyReport(held.progress, ticket: held.ticket, time: state.ordered(held.time), in: &state)
            }
            apply(change, to: &state, releasing: &released)
        }
        coalescer.takeAll { held in
            applyReport(held.progress, ticket: held.ticket, time: state.ordered(held.time), in: &state)
        }
    }
}
