import OpsMonitor

/// Why an operation is not running (or how it ended), for the table's WHY column.
public enum WaitReason: Sendable, Equatable {
    /// Waiting on these unfinished dependencies.
    case dependencies([Int])
    /// Ready, but the queue is paused.
    case queuePaused
    /// Ready, but every slot is taken.
    case slotsBusy
    /// Executing, waiting out a retry back-off: retry `number` starts in `after`.
    case retrying(number: Int, after: Duration)
    /// Finished with a failure or cancellation message.
    case ended(String)
    /// Nothing to explain.
    case none

    /// The reason for `operation` under the state's snapshot; looks up each dependency in
    /// O(log n).
    public init(_ operation: OperationSnapshot, in state: DashboardState) {
        self.init(operation, in: state.snapshot, concurrency: state.effectiveConcurrency)
    }

    /// The reason for `operation` in `snapshot` with the concurrency limit `concurrency` (below
    /// 1: none): what a table takes once for all its rows, not a copy of the state per row.
    init(_ operation: borrowing OperationSnapshot, in snapshot: borrowing QueueSnapshot, concurrency limit: Int) {
        switch operation.lifecycle {
        case .waiting:
            let unfinished = operation.dependencies.filter {
                !(snapshot.operation(id: $0)?.hasFinished ?? true)
            }
            self = .dependencies(unfinished)
        case .ready:
            if snapshot.isSuspended {
                self = .queuePaused
            } else if limit > 0 && snapshot.counts.executing >= limit {
                self = .slotsBusy
            } else {
                self = .none
            }
        case .executing:
            if let next = operation.nextAttemptAt {
                self = .retrying(number: operation.retries, after: max(.zero, next - snapshot.time))
            } else {
                self = .none
            }
        case .finished:
            if let message = operation.message, operation.outcome != .succeeded {
                self = .ended(message)
            } else {
                self = .none
            }
        }
    }

    /// The column's text and style.
    var cell: (String, CellStyle) {
        switch self {
        case .dependencies(let ids):
            let text =
                ids.isEmpty ? "needs deps" : "needs " + ids.map { "#\($0)" }.joined(separator: ",")
            return (text, DisplayState.waiting.style)
        case .queuePaused: return ("queue paused", CellStyle(foreground: .yellow, bold: true))
        case .slotsBusy: return ("slots busy", Theme.warning)
        case .retrying(let number, let after):
            return ("retry \(number) in \(Format.countdown(after))", Theme.warning)
        case .ended(let message): return (message, Theme.error)
        case .none: return ("", .plain)
        }
    }
}
