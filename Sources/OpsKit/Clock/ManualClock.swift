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

    /// The deadlines of work scheduled and not yet run or cancelled, earliest first.
    public var pendingDeadlines: [Duration] {
        state.withLock { $0.pending.filter { !$0.handle.isCancelled }.map(\.deadline) }.sorted()
    }

    /// Throws `LeftoverWork` when work is still scheduled (not run, not cancelled), like
    /// swift-nio's `EmbeddedChannel.finish()`: call it at the end of a test, where a timer that
    /// nobody advanced to usually means the test stopped before the behaviour it meant to check.
    public func checkNoScheduledWork() throws(LeftoverWork) {
        let deadlines = pendingDeadlines
        guard deadlines.isEmpty else { throw LeftoverWork(now: now, deadlines: deadlines) }
    }

    /// Work left scheduled on a `ManualClock` when a test said it should be idle.
    public struct LeftoverWork: Error, CustomStringConvertible, Equatable {
        /// The clock's time when it was checked.
        public let now: Duration
        /// When each leftover piece of work would run, earliest first.
        public let deadlines: [Duration]

        /// Creates a value with every field given.
        public init(now: Duration, deadlines: [Duration]) {
            self.now = now
            self.deadlines = deadlines
        }

        /// `2 pieces of work still scheduled on the ManualClock at 1.5 s (due at 2.0 s, 3.0 s)`.
        public var description: String {
            let due = deadlines.prefix(5).map { "\($0.seconds) s" }.joined(separator: ", ")
            let more = deadlines.count > 5 ? ", …" : ""
            let noun = deadlines.count == 1 ? "piece" : "pieces"
            return "\(deadlines.count) \(noun) of work still scheduled on the ManualClock at \(now.seconds) s "
                + "(due at \(due)\(more))"
        }
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
