import Foundation
import OpsKit
import Synchronization

/// A recording observer for queues: start and finish events in the order they happened, the
/// peak of concurrently executing operations, and starts that went over a limit.
public final class ExecutionLog: Sendable {
    private struct State {
        var events: [String] = []
        var executing = 0
        var peak = 0
        var limitAtStartViolations: [String] = []
    }
    private let state = OpsMutex(State())

    /// Creates an empty log.
    public init() {}

    /// Records that `name` started; with `limit`, also whether that made too many run at once.
    public func started(_ name: String, limit: Int? = nil) {
        state.withLock {
            $0.events.append("start \(name)")
            $0.executing += 1
            $0.peak = max($0.peak, $0.executing)
            if let limit, $0.executing > limit {
                $0.limitAtStartViolations.append("\(name): \($0.executing) > \(limit)")
            }
        }
    }

    /// Records that `name` stopped executing.
    public func finished(_ name: String) {
        state.withLock {
            $0.events.append("finish \(name)")
            $0.executing -= 1
        }
    }

    /// `start a`, `finish a`, … in order.
    public var events: [String] { state.withLock { $0.events } }
    /// The most operations executing at once.
    public var peak: Int { state.withLock { $0.peak } }
    /// `name: 5 > 4` for each start over the limit in force.
    public var violations: [String] { state.withLock { $0.limitAtStartViolations } }
}

/// Observes `isExecuting` of `op` into `log`; `limit` reads the limit in force at each start.
public func watch(
    _ op: AsyncOperation, _ log: ExecutionLog, limit: (@Sendable () -> Int)? = nil
) -> NSKeyValueObservation {
    op.observe(\.isExecuting, options: [.new]) { op, change in
        if change.newValue == true {
            log.started(op.name ?? "?", limit: limit?())
        } else {
            log.finished(op.name ?? "?")
        }
    }
}
