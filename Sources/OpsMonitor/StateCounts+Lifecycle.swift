import OpsKit

extension StateCounts {
    /// The counter for a lifecycle (and, when finished, its outcome).
    subscript(lifecycle: Lifecycle, outcome: Outcome?) -> Int {
        get {
            switch lifecycle {
            case .waiting: waiting
            case .ready: ready
            case .executing: executing
            case .finished:
                switch outcome ?? .succeeded {
                case .succeeded: succeeded
                case .failed: failed
                case .cancelled: cancelled
                }
            }
        }
        set {
            switch lifecycle {
            case .waiting: waiting = newValue
            case .ready: ready = newValue
            case .executing: executing = newValue
            case .finished:
                switch outcome ?? .succeeded {
                case .succeeded: succeeded = newValue
                case .failed: failed = newValue
                case .cancelled: cancelled = newValue
                }
            }
        }
    }
}
