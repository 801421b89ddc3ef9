import OpsKit

/// A dashboard's refresh holds back the progress reports it applies, per operation, until
/// something else about that operation is applied or the refresh ends, and applies only the
/// newest of each run: a report carries the operation's whole progress, so the ones before it
/// change nothing the picture shows (the bytes they moved are in the newest one's count). Not
/// for a store that records events (each report is one) or when the retry count moves (each
/// retry logs a line): those reports are applied as they come.
struct ProgressCoalescer {
    /// A report held back: its operation's ticket, the progress and when it was stamped.
    typealias Report = (ticket: UInt64, progress: OperationProgress, time: Duration)

    /// The reports held, in the order their operations were first held (taken ones are nil).
    private var held: [Report?] = []
    /// The ticket of each of `held`, scanned while few operations report (a frame's reports
    /// come from the few running ones: a scan of a few integers costs less than hashing).
    private var tickets: [UInt64] = []
    /// Where each ticket's report is in `held`, once more than `scanLimit` operations are held
    /// (empty until then).
    private var positions: [UInt64: Int] = [:]
    /// Reports held and not taken.
    private var count = 0

    /// Operations held before the table by ticket is built.
    static let scanLimit = 16

    var isEmpty: Bool { count == 0 }

    /// Holds `report`, replacing the one held for its operation; returns that one when it must
    /// still be applied first (its retry count differs).
    mutating func hold(_ report: Report) -> Report? {
        guard let position = position(of: report.ticket) else {
            count += 1
            if usesTable { positions[report.ticket] = held.count }
            held.append(report)
            tickets.append(report.ticket)
            if !usesTable, tickets.count > Self.scanLimit {
                for (index, ticket) in tickets.enumerated() { positions[ticket] = index }
            }
            return nil
        }
        guard let earlier = held[position] else {
            count += 1
            held[position] = report
            return nil
        }
        held[position] = report
        return earlier.progress.retries == report.progress.retries ? nil : earlier
    }

    /// Takes the report held for `ticket`, if any (something else about its operation is about
    /// to be applied: the report goes first).
    mutating func take(_ ticket: UInt64) -> Report? {
        guard let position = position(of: ticket), let report = held[position] else { return nil }
        held[position] = nil
        count -= 1
        return report
    }

    /// Hands every report still held to `body`, in the order first held; nothing is held
    /// afterwards (the room is kept for the next refresh).
    mutating func takeAll(_ body: (Report) -> Void) {
        for report in held {
            if let report { body(report) }
        }
        held.removeAll(keepingCapacity: true)
        tickets.removeAll(keepingCapacity: true)
        if usesTable { positions.removeAll(keepingCapacity: true) }
        count = 0
    }

    /// Whether tickets are found through `positions` (more than `scanLimit` operations held).
    private var usesTable: Bool { !positions.isEmpty }

    /// Where `ticket`'s report is or was in `held` (a taken one's place is reused).
    private func position(of ticket: UInt64) -> Int? {
        usesTable ? positions[ticket] : tickets.lastIndex(of: ticket)
    }
}
