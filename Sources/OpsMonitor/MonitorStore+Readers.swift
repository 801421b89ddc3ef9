extension MonitorStore {
    // MARK: Readers: each consumer of events or tallies gets its own copy

    /// The events recorded for one reader since its last drain.
    struct EventQueue {
        var reader: Int
        var events: [MonitorEvent] = []
        /// Events held at most; past it, nothing more is kept until reading starts again.
        var limit = Int.max
        /// More events came than `limit`: those after the first `limit` were not kept.
        var overflowed = false
    }

    /// The tally collected for one metrics reader since its last take.
    struct TallyQueue {
        var reader: Int
        var tally = MonitorTally()
    }

    /// Starts (or stops, dropping what it did not drain) recording events for `reader`, holding
    /// at most `limit` undrained events; starting again after an overflow starts afresh.
    mutating func setReading(_ on: Bool, reader: Int, limit: Int = .max) {
        let index = eventQueues.firstIndex { $0.reader == reader }
        if let index, !on || eventQueues[index].overflowed { eventQueues.remove(at: index) }
        if on, !isReading(reader: reader) { eventQueues.append(EventQueue(reader: reader, limit: max(1, limit))) }
    }

    /// Whether events are recorded for `reader`.
    func isReading(reader: Int) -> Bool {
        eventQueues.contains { $0.reader == reader }
    }

    /// Whether `reader` was sent more events than its limit since it started reading.
    func hasOverflowed(reader: Int) -> Bool {
        eventQueues.contains { $0.reader == reader && $0.overflowed }
    }

    /// Whether some reader still keeps the events recorded now.
    var keepsEvents: Bool {
        eventQueues.contains { !$0.overflowed }
    }

    /// Hands over and forgets the events recorded for `reader` (none if it is not reading).
    mutating func drainEvents(reader: Int) -> [MonitorEvent] {
        guard let index = eventQueues.firstIndex(where: { $0.reader == reader }) else { return [] }
        defer { eventQueues[index].events.removeAll(keepingCapacity: true) }
        return eventQueues[index].events
    }

    /// Starts collecting a tally for `reader` (finishes and bytes from now on), if not yet.
    mutating func startTally(reader: Int) {
        if !tallies.contains(where: { $0.reader == reader }) { tallies.append(TallyQueue(reader: reader)) }
    }

    /// Stops collecting for `reader`.
    mutating func stopTally(reader: Int) {
        tallies.removeAll { $0.reader == reader }
    }

    /// `reader`'s tally so far with the current counts and settings; forgets the finish
    /// timings handed over. Nil unless `reader` collects.
    mutating func takeTally(reader: Int) -> MonitorTally? {
        guard let index = tallies.firstIndex(where: { $0.reader == reader }) else { return nil }
        var taken = tallies[index].tally
        taken.counts = counts
        taken.isSuspended = isSuspended
        taken.maxConcurrentOperationCount = maxConcurrentOperationCount
        tallies[index].tally.finished = []
        tallies[index].tally.droppedTimings = 0
        return taken
    }
}
