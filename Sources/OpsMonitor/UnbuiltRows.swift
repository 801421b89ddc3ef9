/// The operations of a backlog whose rows nobody could ever read, found by a look over the
/// backlog before it is applied: each is added and finished within it, at least
/// `finishedOperations` operations added after it finish within it too (so the store's
/// eviction drops its row before the backlog ends, and the newest finished rows it keeps are
/// all built), and at least `logEntries` finishes come after its own (so its log entries are
/// pushed out of the log by then). Such an operation is counted as a row would be (counts, the
/// per-second history, finish timings, tallies, the evicted count) but no row and no log
/// entry is made for it.
///
/// A drain of 100,000 operations nobody watches applied in one backlog builds ~10,000 rows,
/// not 100,000. Everything a reader sees once the backlog is applied is the same, but which
/// finished rows older than the newest `finishedOperations` are still held (the store evicts
/// those in passes, when it chooses).
///
/// The look costs a walk over the backlog at each take of the inbox (a change is looked at
/// twice at most: the background applier takes only once its backlog is applied, and a
/// reader applies all it takes); it is made only for a backlog longer than both limits, whose
/// added tickets come in increasing order (one queue's, in the order it took them), when no
/// reader keeps events (each row's events would be read).
struct UnbuiltTickets {
    /// The ticket of `unbuilt[0]`.
    private var base: UInt64 = 0
    /// Whether each ticket from `base` on is left unbuilt.
    private var unbuilt: [Bool] = []

    /// Whether the operation of `ticket` is counted without a row.
    func contains(_ ticket: UInt64) -> Bool {
        guard ticket >= base else { return false }
        let offset = ticket - base
        return offset < UInt64(unbuilt.count) && unbuilt[Int(offset)]
    }

    /// The tickets of `backlog` followed by `taken` (changes about to be appended to it) whose
    /// rows a store keeping `finishedOperations` finished rows and `logEntries` log entries
    /// would drop unread. Looked for again at each take: more changes only add tickets.
    /// `finishes` is at least the number of finishes the two hold (counted as they were
    /// recorded): with no more than either limit, no row qualifies and the changes are not walked.
    init(
        _ backlog: borrowing ChangeChunks, _ taken: borrowing ChangeChunks, finishes: UInt64,
        finishedOperations: Int, logEntries: Int
    ) {
        let later = max(finishedOperations, logEntries)
        guard finishes > UInt64(later) else { return }
        // One walk over the changes (large and cold) into two compact lists.
        var adds: [UInt64] = []
        var finishes: [UInt64] = []
        func note(_ change: borrowing PendingChange) {
            let step = change.step
            if step.adds {
                adds.append(step.ticket)
            } else if step.finishes {
                finishes.append(step.ticket)
            }
        }
        backlog.forEach(note)
        taken.forEach(note)
        // Added tickets must grow change by change (one queue's, in the order it took them).
        guard adds.count > later, let first = adds.first, let last = adds.last, last >= first,
            last - first < UInt64(2 * adds.count), zip(adds, adds.dropFirst()).allSatisfy({ $0 < $1 })
        else { return }
        // Each added ticket's place among the finishes (its first): -2 not added here, -1 not
        // finished here.
        let span = Int(last - first) + 1
        var finishPlace = [Int32](repeating: -2, count: span)
        for ticket in adds { finishPlace[Int(ticket - first)] = -1 }
        var placed: Int32 = 0
        for ticket in finishes where ticket >= first && ticket <= last {
            let offset = Int(ticket - first)
            guard finishPlace[offset] == -1 else { continue }
            finishPlace[offset] = placed
            placed += 1
        }
        // From the newest added: left unbuilt once enough later-added operations finished.
        var found = [Bool](repeating: false, count: span)
        var finishedAfter = 0
        var any = false
        for offset in stride(from: span - 1, through: 0, by: -1) where finishPlace[offset] >= 0 {
            if finishedAfter >= finishedOperations, Int(placed - finishPlace[offset]) - 1 >= logEntries {
                found[offset] = true
                any = true
            }
            finishedAfter += 1
        }
        guard any else { return }
        base = first
        unbuilt = found
    }

    /// No ticket.
    init() {}
}

/// What a monitor keeps of an operation it counts without a row (`UnbuiltTickets`): what its
/// changes add to the store's totals needs its state and times.
struct UnbuiltRow {
    var lifecycle: Lifecycle
    /// When it was added and started, in nanoseconds of clock time (as a row keeps them).
    var addedNanoseconds: Int64
    var startedNanoseconds: Int64?

    /// An operation added at `time` in `lifecycle`.
    init(lifecycle: Lifecycle, time: Duration) {
        self.lifecycle = lifecycle
        addedNanoseconds = time.nanoseconds
    }
}
