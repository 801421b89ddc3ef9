import Foundation
import OpsKit

/// What applying changes gave up, to be let go of once the state lock is: subscriptions to
/// invalidate and, for a reader that parks them (`QueueMonitor.refresh`), the finished
/// operations the monitor held last.
struct Released {
    var tokens: [NSKeyValueObservation] = []
    /// Finished operations, kept only when `keepsOperations` (else each is let go of where it
    /// is removed, as it always was).
    var operations: [Operation] = []
    /// Whether finished operations are kept here to be parked.
    var keepsOperations = false

    mutating func append(_ token: NSKeyValueObservation) { tokens.append(token) }

    mutating func append(contentsOf more: [NSKeyValueObservation]) { tokens.append(contentsOf: more) }

    /// Keeps `op`, a finished operation the monitor lets go of, if operations are kept.
    mutating func keep(_ op: Operation) {
        if keepsOperations { operations.append(op) }
    }

    /// Invalidates every token (outside the state lock: invalidating takes the observed
    /// object's registry lock).
    func invalidate() {
        for token in tokens { token.invalidate() }
    }
}

/// Objects whose last reference the monitor gave up on a reader's thread (the dashboard's), left
/// in the inbox for the next worker thread that records a change to let go of: freeing a
/// finished operation (its deinit, its KVO tokens') is then the app's worker's work, as it is
/// without a monitor, not the dashboard's. What no worker takes by the reader's next refresh
/// is freed there.
struct Parked: Sendable {
    var operations: [Operation] = []
    var tokens: [NSKeyValueObservation] = []

    var isEmpty: Bool { operations.isEmpty && tokens.isEmpty }

    /// The most a recording thread takes at once: a burst of finishes is freed a few at a time
    /// by many records, not all by one worker.
    static let takeLimit = 32

    /// Takes up to `takeLimit` objects of each kind.
    mutating func take() -> Parked {
        Parked(operations: Self.takeSome(of: &operations), tokens: Self.takeSome(of: &tokens))
    }

    /// The last `takeLimit` of `objects` (all of them, moved out, when there are no more).
    private static func takeSome<Object>(of objects: inout [Object]) -> [Object] {
        guard objects.count > takeLimit else {
            defer { objects = [] }
            return objects
        }
        defer { objects.removeLast(takeLimit) }
        return Array(objects.suffix(takeLimit))
    }
}
