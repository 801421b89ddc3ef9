import Foundation

extension Operation {
    /// `dependencies`, without Foundation's lock and array copy for an `AsyncOperation` that
    /// never had one (`hasHadDependencies`): how the queue and the monitor look at 100,000
    /// independent operations.
    public var currentDependencies: [Operation] {
        if let async = self as? AsyncOperation, !async.hasHadDependencies { return [] }
        return dependencies
    }
}
