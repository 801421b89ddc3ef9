import Foundation
import OpsKit

extension QueueMonitor {
    /// The shortest time between two readings of the running operations' Foundation `Progress`:
    /// one frame at the dashboard's default 20 frames per second.
    static let progressSampleInterval = Duration.milliseconds(50)

    /// A running operation whose progress is read from its Foundation `Progress` (which posts
    /// no change notifications on Linux), with the value last applied.
    struct SampledProgress {
        var id: Int
        var operation: Operation
        var source: FoundationProgressSource
        var last: OperationProgress?
    }

    /// Starts reading `op`'s Foundation `Progress` (if it has one) now that it runs.
    func startSampling(_ op: Operation, id: Int, last: OperationProgress? = nil, in state: inout State) {
        guard let source = FoundationProgressSource(op) else { return }
        state.sampled.append(SampledProgress(id: id, operation: op, source: source, last: last))
    }

    /// Looks for starts the queue does not tell (`lookForPlainStarts`) and reads every running
    /// operation's Foundation `Progress`, at most once per
    /// `progressSampleInterval` of the monitor's clock, and applies the values that changed
    /// (as a pushed report is applied). Called by readers (a dashboard frame, a publisher's
    /// pump), never on the app's worker threads.
    func sampleProgress(in state: inout State, time: Duration) {
        guard Self.isSampleDue(in: state, time: time) else { return }
        state.lastSample = time
        lookForPlainStarts(in: &state, time: time)
        for index in state.sampled.indices {
            guard let progress = state.sampled[index].source.progress else { continue }
            let value = OperationProgress(progress)
            guard value != state.sampled[index].last else { continue }
            state.sampled[index].last = value
            let entry = state.sampled[index]
            applyProgress(value, of: entry.operation, id: entry.id, time: time, in: &state)
        }
    }

    /// Whether `sampleProgress` at `time` would read anything: some operation's `Progress` or
    /// unreported start is watched, and the last reading is `progressSampleInterval` old.
    static func isSampleDue(in state: State, time: Duration) -> Bool {
        guard !state.sampled.isEmpty || !state.unstartedPlain.isEmpty else { return false }
        guard let last = state.lastSample else { return true }
        return time - last >= progressSampleInterval
    }

    /// Stops reading operation `id`'s `Progress` (it finished), after applying its last value.
    func stopSampling(id: Int, time: Duration, in state: inout State) {
        guard let index = state.sampled.firstIndex(where: { $0.id == id }) else { return }
        let entry = state.sampled.remove(at: index)
        guard let progress = entry.source.progress else { return }
        let value = OperationProgress(progress)
        if value != entry.last { applyProgress(value, of: entry.operation, id: id, time: time, in: &state) }
    }
}
