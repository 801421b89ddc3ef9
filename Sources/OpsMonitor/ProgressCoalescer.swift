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
    /// Where each ticket's report is in `held`.
    private var positions: [UInt64: Int] = [:]

    var isEmpty: Bool { positions.isEmpty }

    /// Holds `report`, replacing the one held for its operation; returns that one when it must
    /// still be applied first (its retry count differs).
    mutating func hold(_ report: Report) -> Report? {
        guard let position = positions[report.ticket], let earlier = held[position] else {
            positions[report.ticket] = held.count
            held.append(report)
            return nil
        }
        held[position] = report
        return earlier.progress.retries == report.progress.retries ? nil : earlier
    }

    /// Takes the report held for `ticket`, if any (something else about its operation is about
    /// to be applied: the report goes first).
    mutating func take(_ ticket: UInt64) -> Report? {
        guard let position = positions.removeValue(forKey: ticket) else { return nil }
        defer { held[position] = nil }
        return held[position]
    }

    /// Every report still held, in the order first held; nothing is held afterwards.
    mutating func takeAll() -> [Report] {
        defer {
            held = []
            positions = [:]
        }
        return held.compactMap { $0 }
    }
}
