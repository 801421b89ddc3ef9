extension QueueMonitor {
    /// The queue's counts and settings now, everything seen so far applied: what a fleet list
    /// shows of an app, without a snapshot's operations (so it costs the same for any queue).
    package func summary() -> (time: Duration, counts: StateCounts, suspended: Bool, limit: Int) {
        withAppliedState { state, time in
            (time, state.store.counts, state.store.isSuspended, state.store.maxConcurrentOperationCount)
        }
    }
}
