import Synchronization

/// Virtual time for tests: nothing happens until `advance(by:)`, which runs due work in
/// (deadline, insertion order), setting `now` to each deadline before running that work.
///
/// Work may be scheduled from any thread, also from inside work being run; work that falls due
/// within the advanced span runs in the same `advance` call.
public final class ManualClock: SimulationClock {
    private struct Entry {
        var deadline: Duration
        var sequence: UInt64
        var handle: ScheduledWork
        var work: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var sequence: UInt64 = 0
        var pending: [Entry] = []
    }

    private let state = Mutex(State())

    /// Creates a clock at time zero.
    public init() {}

    public var now: Duration { state.withLock { $0.now } }

    /// Work scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        state.withLock { $0.pending.filter { !$0.handle.isCancelled }.count }
    }

    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        state.withLock { state in
            state.sequence += 1
            let entry = Entry(
                deadline: state.now + max(.zero, delay), sequence: state.sequence,
                handle: handle, work: work)
            state.pending.append(entry)
        }
        return handle
    }

    /// Moves time forward by `duration`, running everything that falls due on the way.
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now } + duration
        while let entry = takeNext(dueBy: target) {
            if !entry.handle.isCancelled { entry.work() }
        }
        state.withLock { if $0.now < target { $0.now = target } }
    }

    /// Runs everything that is due now, without moving time.
    public func runDue() { advance(by: .zero) }

    private func takeNext(dueBy target: Duration) -> Entry? {
        state.withLock { state in
            var best: Int?
            for (index, entry) in state.pending.enumerated() where entry.deadline <= target {
                if let current = best {
                    let other = state.pending[current]
                    if (entry.deadline, entry.sequence) < (other.deadline, other.sequence) {
                        best = index
                    }
                } else {
                    best = index
                }
            }
            guard let index = best else { return nil }
            let entry = state.pending.remove(at: index)
            if entry.deadline > state.now { state.now = entry.deadline }
            return entry
        }
    }
}
