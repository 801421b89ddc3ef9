/// One consumer's view of a `QueueMonitor`'s changes as events: every event recorded while it
/// reads, in order, whatever other readers take. A monitor serves any number of them (each
/// `QueuePublisher` has one; a recorder or your own code can take another), and costs nothing
/// extra while none reads. Made by `QueueMonitor.makeEventReader()`; stops reading when released.
public final class MonitorEventReader: Sendable {
    private let slot: MonitorReaderSlot
    private var monitor: QueueMonitor { slot.monitor }
    private var id: Int { slot.id }
    /// Undrained events held at most (see `hasOverflowed`).
    public let limit: Int

    init(monitor: QueueMonitor, limit: Int) {
        slot = MonitorReaderSlot(monitor: monitor) { store, id in store.setReading(false, reader: id) }
        self.limit = max(1, limit)
    }

    /// Starts or stops reading (events not drained are dropped when it stops) and returns the
    /// picture at that moment: once reading, the events drained later are exactly the changes
    /// after it. Starting again after an overflow starts afresh.
    @discardableResult
    public func setReading(_ on: Bool) -> QueueSnapshot {
        monitor.setReading(on, reader: id, limit: limit)
    }

    /// Stops reading at once, applying nothing and taking no picture: events not drained are
    /// dropped, and changes recorded but not applied yet will not be read either. For a reader
    /// that gives up following (a publisher when the queue changes faster than any viewer
    /// follows), so that giving up costs it no share of the monitor's work.
    public func stopReading() {
        monitor.state.withLock { $0.store.setReading(false, reader: id) }
    }

    /// Whether this reader is reading.
    public var isReading: Bool {
        monitor.state.withLock { $0.store.isReading(reader: id) }
    }

    /// Whether more than `limit` events came between two drains since reading started: the
    /// events after the first `limit` were not kept (and nothing is, until `setReading(true)`
    /// starts afresh). Costs the monitor nothing per change once overflowed.
    public var hasOverflowed: Bool {
        monitor.state.withLock { $0.store.hasOverflowed(reader: id) }
    }

    /// The events recorded for this reader since its last drain.
    public func drain() -> [MonitorEvent] {
        monitor.drainEvents(reader: id)
    }

    /// The events since the last drain and the picture right after the last of them, taken
    /// together.
    public func drainWithSnapshot() -> (events: [MonitorEvent], snapshot: QueueSnapshot) {
        monitor.drainEventsAndSnapshot(reader: id)
    }
}

/// One metrics consumer's `MonitorTally` of a `QueueMonitor`: bytes transferred and finish
/// timings from when it was made, whatever other consumers take (a Prometheus and a StatsD
/// exporter each see every finish). Made by `QueueMonitor.makeTallyReader()`; stops collecting
/// when released.
public final class MonitorTallyReader: Sendable {
    private let slot: MonitorReaderSlot

    init(monitor: QueueMonitor) {
        slot = MonitorReaderSlot(monitor: monitor) { store, id in store.stopTally(reader: id) }
        monitor.withAppliedState { state, _ in state.store.startTally(reader: slot.id) }
    }

    /// Everything seen so far applied, the tally with the current counts; the finish timings
    /// are handed over once.
    public func take() -> MonitorTally {
        slot.monitor.takeTally(reader: slot.id) ?? MonitorTally()
    }
}

/// A reader's place in a monitor: its number, and what its release undoes in the store.
final class MonitorReaderSlot: Sendable {
    let monitor: QueueMonitor
    let id: Int
    private let release: @Sendable (inout MonitorStore, Int) -> Void

    init(monitor: QueueMonitor, release: @escaping @Sendable (inout MonitorStore, Int) -> Void) {
        self.monitor = monitor
        self.id = monitor.makeReaderID()
        self.release = release
    }

    deinit {
        let id = id
        monitor.state.withLock { release(&$0.store, id) }
    }
}

extension QueueMonitor {
    /// A new reader of this monitor's changes as events, not reading yet (`setReading(true)`),
    /// that holds at most `limit` undrained events (`hasOverflowed` says when more came).
    public func makeEventReader(limit: Int = .max) -> MonitorEventReader {
        MonitorEventReader(monitor: self, limit: limit)
    }

    /// A new metrics tally of this monitor, collecting from now on.
    public func makeTallyReader() -> MonitorTallyReader {
        MonitorTallyReader(monitor: self)
    }

    func makeReaderID() -> Int {
        state.withLock { state in
            defer { state.nextReaderID += 1 }
            return state.nextReaderID
        }
    }

    func setReading(_ on: Bool, reader: Int, limit: Int = .max) -> QueueSnapshot {
        withAppliedState { state, time in
            state.store.setReading(on, reader: reader, limit: limit)
            return state.store.snapshot(time: time)
        }
    }

    func drainEvents(reader: Int) -> [MonitorEvent] {
        withAppliedState { state, _ in state.store.drainEvents(reader: reader) }
    }

    func drainEventsAndSnapshot(reader: Int) -> (events: [MonitorEvent], snapshot: QueueSnapshot) {
        withAppliedState { state, time in (state.store.drainEvents(reader: reader), state.store.snapshot(time: time)) }
    }

    func takeTally(reader: Int) -> MonitorTally? {
        withAppliedState { state, _ in state.store.takeTally(reader: reader) }
    }
}
