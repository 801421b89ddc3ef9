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
/// The look reads the backlog's adds and finishes as the recording threads listed them
/// (`BacklogSteps`: two compact lists, not a walk over the changes); it is made only for a
/// backlog that finishes more operations than either limit, whose added tickets come in
/// increasing order (one queue's, in the order it took them), when no reader keeps events
/// (each row's events would be read).
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

    /// The tickets of a backlog (`steps`: its adds and finishes, in order) whose rows a store
    /// keeping `finishedOperations` finished rows and `logEntries` log entries would drop
    /// unread. Looked for again at each take: more changes only add tickets. With no more
    /// finishes than either limit, no row qualifies and nothing is looked at.
    init(_ steps: borrowing BacklogSteps, finishedOperations: Int, logEntries: Int) {
        let later = max(finishedOperations, logEntries)
        guard steps.finishes.count > later else { return }
        // The walks below run over every operation of a drain (100,000): they read and write
        // through buffer pointers, with no per-element bounds or uniqueness check.
        let adds = steps.adds
        // Added tickets must grow change by change (one queue's, in the order it took them).
        guard adds.count > later, let first = adds.first, let last = adds.last, last >= first,
            last - first < UInt64(2 * adds.count), Self.increase(adds)
        else { return }
        // Each added ticket's place among the finishes (its first): -2 not added here, -1 not
        // finished here.
        let span = Int(last - first) + 1
        var finishPlace = [Int32](repeating: -2, count: span)
        var placed: Int32 = 0
        finishPlace.withUnsafeMutableBufferPointer { places in
            adds.withUnsafeBufferPointer { adds in
                for ticket in adds { places[Int(ticket - first)] = -1 }
            }
            steps.finishes.withUnsafeBufferPointer { finishes in
                for ticket in finishes where ticket >= first && ticket <= last {
                    let offset = Int(ticket - first)
                    guard places[offset] == -1 else { continue }
                    places[offset] = placed
                    placed += 1
                }
            }
        }
        // From the newest added: left unbuilt once enough later-added operations finished.
        var found = [Bool](repeating: false, count: span)
        var any = false
        found.withUnsafeMutableBufferPointer { found in
            finishPlace.withUnsafeBufferPointer { places in
                var finishedAfter = 0
                var offset = span
                while offset > 0 {
                    offset -= 1
                    let place = places[offset]
                    guard place >= 0 else { continue }
                    if finishedAfter >= finishedOperations, Int(placed - place) - 1 >= logEntries {
                        found[offset] = true
                        any = true
                    }
                    finishedAfter += 1
                }
            }
        }
        guard any else { return }
        base = first
        unbuilt = found
    }

    /// No ticket.
    init() {}

    /// Whether `tickets` strictly increase.
    private static func increase(_ tickets: [UInt64]) -> Bool {
        tickets.withUnsafeBufferPointer { tickets in
            var previous: UInt64?
            for ticket in tickets {
                if let previous, ticket <= previous { return false }
                previous = ticket
            }
            return true
        }
    }
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

/// The tickets a backlog adds and finishes, in the order it does (what `UnbuiltTickets` looks
/// at): listed by the recording threads as they record, under the inbox lock they hold anyway,
/// so that a take need not walk 300,000 large changes to find them.
///
/// A backlog's list starts when a take finds the backlog empty and grows with each take; the
/// adds and finishes already applied stay in it, which changes nothing for those not applied
/// yet (an operation's add is applied before every later add and every later finish).
struct BacklogSteps {
    private(set) var adds: [UInt64] = []
    private(set) var finishes: [UInt64] = []

    /// Notes that `ticket` was added.
    mutating func add(_ ticket: UInt64) { adds.append(ticket) }

    /// Notes that `tickets` were added, in this order.
    mutating func add(_ tickets: [UInt64]) { adds.append(contentsOf: tickets) }

    /// Notes that `ticket` finished.
    mutating func finish(_ ticket: UInt64) { finishes.append(ticket) }

    /// Appends what `other` lists.
    mutating func append(_ other: borrowing BacklogSteps) {
        adds.append(contentsOf: other.adds)
        finishes.append(contentsOf: other.finishes)
    }
}
