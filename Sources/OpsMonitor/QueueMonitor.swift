import Dispatch
import DequeModule
import Foundation
import OpsKit
import Synchronization

/// Watches an `ObservableOperationQueue` and its operations through OpsKit's KVO layer and keeps
/// a thread-safe store the dashboard reads as immutable `QueueSnapshot`s.
///
/// Watching costs the queue almost nothing: the monitor listens to the queue (its lifecycle
/// listener on Linux, `operations` elsewhere) and its settings, subscribes to an operation
/// only while it waits for dependencies (readiness) or runs and reports progress
/// (`ProgressReportingOperation`), and
/// on a worker thread only stamps each change with the clock and appends it to an inbox. The
/// store applies the inbox in order, in batches, on a background applier or whenever someone
/// reads, so every read sees every change made before it.
public final class QueueMonitor: Sendable {
    // Locking: `state` (Mutex) holds the store and the bookkeeping; `recorder.inbox` (spin lock) holds
    // the changes not applied yet. Lock order: state, then inbox. KVO handlers take only `inbox`.
    // Neither lock is held while calling out to user code; tokens are invalidated after unlocking.
    struct State {
        var store: MonitorStore
        var tracked = TrackedOperations()
        /// Dependents waiting for a dependency that was not tracked yet.
        var pendingLinks: [OperationKey: [Int]] = [:]
        /// Recently finished operations, so a dependent added later still links to them.
        /// Bounded (oldest dropped first); a reused address never matches.
        var finished = RecentlyFinished()
        /// Changes taken from the inbox and not applied yet, oldest first.
        var backlog = ChangeChunks()
        /// The operations of the backlog counted without a row (nobody could read it).
        var unbuiltTickets = UnbuiltTickets()
        /// Whether operations the backlog shows nobody are counted without a row (off only in
        /// tests, to compare with a monitor that builds every row).
        var countsUnreadOperationsWithoutRows = true
        /// The tickets the backlog adds and finishes (`UnbuiltTickets` reads them).
        var backlogSteps = BacklogSteps()
        /// Rates of operations that report progress without one.
        var rates = RateEstimator()
        /// A refresh's held-back progress reports (empty between refreshes; kept for its room).
        var coalescer = ProgressCoalescer()
        /// The number the next event or tally reader gets (0 is the monitor's own).
        var nextReaderID = 1
        /// The latest time the monitor handed out (a change applied, a snapshot, `now`).
        var latestTime = Duration.zero

        /// `time`, or the latest time handed out if that is later: a change stamped on a worker
        /// thread just before another thread stamped and recorded a later one is applied at
        /// that later time, so times follow the order of the changes (and of the events).
        mutating func ordered(_ time: Duration) -> Duration {
            if latestTime.isShorter(than: time) { latestTime = time }
            return latestTime
        }

        /// Default-name prefixes of the operation classes seen.
        var typeNames = OperationTypeName.Cache()
        /// Running operations read through a Foundation `Progress`, in the order they started.
        var sampled: [SampledProgress] = []
        /// When `sampled` and `unstartedPlain` were last read.
        var lastSample: Duration?
        /// Operations whose start the queue does not tell (not `AsyncOperation`s, on Linux),
        /// unstarted as far as known, oldest first.
        var unstartedPlain = Deque<PlainOperation>()

        /// The id of `op` if it is tracked or finished recently.
        mutating func id(of op: Operation) -> Int? {
            if let ticket = tracked.ticket(of: op), let id = tracked.id(ticket: ticket) { return id }
            return finished.id(of: op)
        }
    }

    /// A finished operation, recognised by its serial number (`AsyncOperation`) or a weak
    /// reference (others), so a reused address never matches. A serial costs no allocation,
    /// and the entry holds no weak field of its own (a weak field is copied, assigned and
    /// destroyed through the runtime at every insertion and removal, even when empty): the
    /// weak reference is boxed, made only for operations that are not `AsyncOperation`s.
    struct FinishedOperation {
        var id: Int
        var serial: UInt64
        var plain: WeakOperation?

        init(_ op: Operation, id: Int) {
            self.id = id
            if let async = op as? AsyncOperation {
                serial = async.serialNumber
            } else {
                serial = 0
                plain = WeakOperation(op)
            }
        }

        /// Whether `op` is this finished operation (not another one at a reused address).
        func matches(_ op: Operation) -> Bool {
            if let plain { return plain.operation === op }
            return (op as? AsyncOperation)?.serialNumber == serial
        }
    }

    /// A weak reference to a finished operation that has no serial number.
    final class WeakOperation: @unchecked Sendable {
        // Locking: `operation` is set once, in `init`, and only read afterwards (a weak
        // reference's load is atomic).
        weak var operation: Operation?

        init(_ operation: Operation) {
            self.operation = operation
        }
    }

    struct Tracked {
        var id: Int
        var operation: Operation
        var tokens: OperationTokens
        /// How the operation's progress is read, as found when it was added (per class), so
        /// that its start and finish do not look again.
        var progress: ProgressSource
        /// Set when the operation is counted without a row (`UnbuiltTickets`): its state and times.
        var unbuilt: UnbuiltRow? = nil

        /// How a monitor reads an operation's progress.
        enum ProgressSource: UInt8 {
            /// It reports none.
            case none
            /// It adopts `ProgressReportingOperation` (its reports are pushed).
            case reporter
            /// It hands out a Foundation `Progress` to read (`FoundationProgressSource`).
            case foundation
        }
    }

    /// Changes the background applier applies per hold of the state lock.
    static let applySlice = 256

    let queue: ObservableOperationQueue
    let limits: MonitorStore.Limits
    let state: OpsMutex<State>
    /// Records changes on worker threads (the KVO handlers' side).
    let recorder: MonitorRecorder
    let queueTokens = OpsMutex<[NSKeyValueObservation]>([])

    /// Starts watching `queue`, timing everything on `clock` (the wall clock unless given: a
    /// test passes a `ManualClock`). With `recordEvents`, every change is also kept for
    /// `drainEvents()` (headless mode) until drained: pass it only if you drain.
    /// A `QueuePublisher` or `QueueMetrics` reads its own copy and needs none of this.
    public init(
        queue: ObservableOperationQueue, clock: any SimulationClock = LiveClock(),
        limits: MonitorStore.Limits = .init(), recordEvents: Bool = false
    ) {
        self.queue = queue
        self.limits = limits
        self.recorder = MonitorRecorder(clock: clock)
        var initial = MonitorStore(limits: limits)
        initial.recordsEvents = recordEvents
        initial.isSuspended = queue.isSuspended
        initial.maxConcurrentOperationCount = queue.maxConcurrentOperationCount
        self.state = OpsMutex(State(store: initial))
        recorder.applyWith { [weak self] in self?.applyPending() }
        // Holding the inbox while subscribing and reading the queue puts every change a worker
        // makes meanwhile after the operation's `added` entry.
        recorder.inbox.withLock { box in
            subscribeToQueue()
            recorder.recordCurrentOperations(of: queue, into: &box)
        }
        applyPending()
    }

    /// Time on the monitor's clock since it started; never earlier than a time the monitor
    /// handed out before (in an event or a snapshot), and every change applied later is
    /// stamped no earlier than it.
    public var now: Duration {
        state.withLock { $0.ordered(recorder.now) }
    }

    /// The current picture of the queue.
    public func snapshot() -> QueueSnapshot {
        withAppliedState { state, time in state.store.snapshot(time: time) }
    }

    /// A new picture if anything changed since `version`, else nil (so an idle dashboard does no work).
    public func snapshot(ifChangedSince version: UInt64) -> QueueSnapshot? {
        withAppliedState { state, time in
            state.store.version == version ? nil : state.store.snapshot(time: time)
        }
    }

    /// Events recorded since the last call (only with `recordEvents`). This is the monitor's own
    /// reader, for one consumer; each other consumer takes its own `makeEventReader()`.
    public func drainEvents() -> [MonitorEvent] {
        drainEvents(reader: 0)
    }

    /// Turns event recording for `drainEvents()` on or off (events not drained are dropped when
    /// it goes off) and returns the picture at that moment: with recording on, the events
    /// drained later are exactly the changes after it.
    @discardableResult
    public func setRecordingEvents(_ on: Bool) -> QueueSnapshot {
        setReading(on, reader: 0)
    }

    /// Whether changes are recorded for `drainEvents()`.
    public var isRecordingEvents: Bool {
        state.withLock { $0.store.isReading(reader: 0) }
    }

    /// Starts collecting a `MonitorTally` for `takeTally()`: finish timings and transferred
    /// bytes from now on (counts are always current). The monitor's own tally, for one
    /// consumer; each other consumer takes its own `makeTallyReader()`.
    public func startTally() {
        withAppliedState { state, _ in state.store.startTally(reader: 0) }
    }

    /// Everything seen so far applied, the tally with the current counts; the finish timings
    /// are handed over once. Nil before `startTally()`.
    public func takeTally() -> MonitorTally? {
        takeTally(reader: 0)
    }

    /// Events recorded since the last drain (only with `recordEvents`) and the picture right
    /// after the last of them, taken together: the snapshot is consistent with the events.
    public func drainEventsAndSnapshot() -> (events: [MonitorEvent], snapshot: QueueSnapshot) {
        drainEventsAndSnapshot(reader: 0)
    }

    /// Changes recorded and not applied yet (a look that applies nothing; for tests).
    var pendingChangeCount: Int {
        state.withLock { state in state.backlog.count + recorder.inbox.withLock { $0.changes.count } }
    }

    /// Applies every change recorded so far, on the caller's thread. Code that adds operations
    /// in bulk calls it after each batch, so that the thread reading snapshots (a dashboard's)
    /// never has a large backlog to apply first.
    public func applyPendingChanges() {
        withAppliedState { _, _ in }
    }

    /// Changes recorded so far (each operation added, ready, started, progressed and
    /// finished), applied or not: how busy the queue is. Costs one hold of the inbox lock that
    /// worker threads append under (never the store's lock, which a low-priority applier may
    /// hold while preempted), and applies nothing.
    public var changeCount: UInt64 {
        recorder.inbox.withLock { $0.taken &+ UInt64($0.changes.count) }
    }

    /// Operations currently tracked and unfinished; 0 once everything finished.
    public var subscribedOperationCount: Int {
        withAppliedState { state, _ in state.tracked.count }
    }

    /// Whether `stop()` was called: the snapshot no longer follows the queue.
    public var isStopped: Bool {
        recorder.inbox.withLock { $0.stopped }
    }

    /// Stops watching: what was seen so far is applied (the store stays readable), every KVO
    /// token is invalidated and later changes are ignored.
    public func stop() {
        var tokens = Released()
        tokens.append(
            contentsOf: queueTokens.withLock { tokens in
                defer { tokens = [] }
                return tokens
            })
        recorder.stopWatching(queue)
        state.withLock { state in
            takeInbox(into: &state)
            applyBacklog(to: &state, releasing: &tokens)
            let dropped = recorder.inbox.withLock { box in
                box.stopped = true
                defer { box.changes = ChangeChunks() }
                return box.changes
            }
            for change in dropped.all {
                if case .added(_, _, _, _, let held) = change { tokens.append(contentsOf: held.all) }
                if case .startedReporting(_, _, let progress) = change { tokens.append(progress) }
            }
            for tracked in state.tracked.entries { tokens.append(contentsOf: tracked.tokens.all) }
            state.tracked = TrackedOperations()
            state.sampled = []
            state.unstartedPlain = []
        }
        tokens.invalidate()
    }

    deinit {
        stop()
        recorder.stopApplier()
    }
}
