/// A condition that ends a headless run (`opsdash --headless --until CONDITION`): a count of
/// operations in a state compared with a number (`failed>0`, `waiting>=1000`), or a stall
/// (`stalled>60s`: nothing finished for more than 60 s while some operation is unfinished).
///
/// `description` is the canonical text (`stalled>120s` for `stalled > 2m`), which parses back
/// to an equal condition. The grammar is in `UntilCondition.parseList(_:)`.
public enum UntilCondition: Sendable, Hashable, CustomStringConvertible {
    /// `count op limit`, e.g. `failed>0`.
    case count(UntilCount, UntilComparison, Int)
    /// `stalled>N s` (`orEqual`: `stalled>=N s`): no operation finished for more than (at least)
    /// `seconds` of the run's clock while some operation is unfinished.
    case stalled(seconds: Int, orEqual: Bool)

    /// The canonical text: no spaces, durations in seconds.
    public var description: String {
        switch self {
        case .count(let count, let comparison, let limit): "\(count.rawValue)\(comparison.rawValue)\(limit)"
        case .stalled(let seconds, let orEqual): "stalled\(orEqual ? ">=" : ">")\(seconds)s"
        }
    }
}

/// What an `UntilCondition` counts: operations in one state of the event stream (`running` is
/// the stream's `executing`), or a sum of them.
public enum UntilCount: String, Sendable, Hashable, CaseIterable {
    case waiting, ready, running, succeeded, failed, cancelled, finished, unfinished, total

    /// This count in `counts`.
    package func value(in counts: StateCounts) -> Int {
        switch self {
        case .waiting: counts.waiting
        case .ready: counts.ready
        case .running: counts.executing
        case .succeeded: counts.succeeded
        case .failed: counts.failed
        case .cancelled: counts.cancelled
        case .finished: counts.finished
        case .unfinished: counts.total - counts.finished
        case .total: counts.total
        }
    }
}

/// How an `UntilCondition` compares a count with its number.
public enum UntilComparison: String, Sendable, Hashable, CaseIterable {
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="
    case equal = "=="

    /// Whether `value` compares so with `limit`.
    package func holds(_ value: Int, _ limit: Int) -> Bool {
        switch self {
        case .greater: value > limit
        case .greaterOrEqual: value >= limit
        case .less: value < limit
        case .lessOrEqual: value <= limit
        case .equal: value == limit
        }
    }
}
