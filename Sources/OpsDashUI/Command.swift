/// What the dashboard asks the outside world to do; the reducer returns these and the run loop
/// carries them out against the real queue.
public enum Command: Sendable, Equatable {
    /// Cancel the operation with this monitor id.
    case cancel(operationID: Int)
    case cancelAll
    /// Cancel each of these operations (`X` for the filter's matches, `x` for an operation and
    /// its dependents), asked and confirmed as one.
    case cancelMany(operationIDs: [Int])
    case setSuspended(Bool)
    case setMaxConcurrentOperationCount(Int)
    /// Clear the terminal and draw every cell again (Ctrl-L), whatever it shows now.
    case repaint
    case quit
}
