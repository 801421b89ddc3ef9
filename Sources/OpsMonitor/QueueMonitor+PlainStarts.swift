import DequeModule
import Foundation
import OpsKit

extension QueueMonitor {
    /// Unstarted operations looked at per reading, from the oldest added.
    static let plainStartScan = 256

    /// Where the queue tells no start (an operation that is not an `AsyncOperation`, such as a
    /// `BlockOperation` or a `main()` subclass), remembers `op` to look for its start.
    func watchPlainStart(_ op: Operation, id: Int, lifecycle: Lifecycle, in state: inout State) {
        guard lifecycle == .waiting || lifecycle == .ready, !(op is AsyncOperation) else { return }
        state.unstartedPlain.append(PlainOperation(id: id, operation: op))
    }

    /// Looks at the oldest unstarted plain operations (at most `plainStartScan`): one that
    /// runs is shown executing from `time`, one waiting whose dependencies finished as ready;
    /// finished ones are dropped (their finish comes from the queue).
    func lookForPlainStarts(in state: inout State, time: Duration) {
        guard !state.unstartedPlain.isEmpty else { return }
        var kept: [PlainOperation] = []
        for _ in 0..<min(Self.plainStartScan, state.unstartedPlain.count) {
            guard let entry = state.unstartedPlain.popFirst() else { break }
            guard let row = state.store.operation(id: entry.id), row.lifecycle == .waiting || row.lifecycle == .ready
            else { continue }
            let op = entry.operation
            if op.isExecuting {
                state.store.transition(entry.id, to: .executing, time: time)
                startSampling(op, id: entry.id, in: &state)
            } else if op.isFinished {
                continue
            } else {
                if row.lifecycle == .waiting, op.isReady { state.store.transition(entry.id, to: .ready, time: time) }
                kept.append(entry)
            }
        }
        state.unstartedPlain.prepend(contentsOf: kept)
    }

    /// An operation whose start is looked for.
    struct PlainOperation {
        var id: Int
        var operation: Operation
    }
}
