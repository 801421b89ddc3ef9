/// What the dashboard asks the outside world to do; the reducer returns these and the run loop
/// carries them out against the real queue.
public enum Command: Sendable, Equatable {
    /// Cancel the operation with this monitor id.
    case cancel(operationID: Int)
    case cancelAll
    case setSuspended(Bool)
    case setMaxConcurrentOperationCount(Int)
    /// Clear the terminal and draw every cell again (Ctrl-L), whatever it shows now.
    case repaint
    case quit
}
