extension QueueMonitor {
    /// Starts no background applier from now on: recorded changes wait until something reads
    /// (or back-pressure applies them). For benchmarks that count one take of a whole drain's
    /// changes (`MonitorCostBench`); tests reach the recorder directly.
    package func holdChangesUntilRead() {
        recorder.disableBackgroundApplier()
    }
}
