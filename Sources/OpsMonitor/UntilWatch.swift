/// Watches a run's counts for `--until` conditions: fed the counts and the run's clock time as the
/// run goes (each pass of a headless loop), it says which condition became true first.
///
/// A stall is measured from the last time the finished count rose, or from when work became
/// unfinished after none was, whichever is later, on the time it is given (the run's clock, so
/// a paused or back-pressured run does not stall by itself). It costs O(conditions) a call and
/// keeps no history.
package struct UntilWatch: Sendable {
    /// Which condition fired, when (on the run's clock), and the value that made it true: the
    /// count, or the seconds nothing finished.
    package struct Firing: Sendable, Equatable {
        package let condition: UntilCondition
        package let time: Duration
        package let count: Int?
        package let stalledFor: Duration?
    }

    /// The conditions, any of which fires.
    package let conditions: [UntilCondition]
    private var finished: Int?
    private var progressAt: Duration?

    /// Watches for any of `conditions`.
    package init(_ conditions: [UntilCondition]) {
        self.conditions = conditions
    }

    /// The first of the conditions (in the order given) that holds for `counts` at `time`; nil
    /// while none does.
    package mutating func observe(_ counts: StateCounts, at time: Duration) -> Firing? {
        let unfinished = counts.total - counts.finished
        if unfinished <= 0 {
            progressAt = nil
        } else if progressAt == nil || counts.finished != finished {
            progressAt = time
        }
        finished = counts.finished
        for condition in conditions {
            switch condition {
            case .count(let count, let comparison, let limit):
                let value = count.value(in: counts)
                if comparison.holds(value, limit) {
                    return Firing(condition: condition, time: time, count: value, stalledFor: nil)
                }
            case .stalled(let seconds, let orEqual):
                guard let since = progressAt else { continue }
                let stalled = time - since
                let limit = Duration.seconds(seconds)
                if orEqual ? stalled >= limit : stalled > limit {
                    return Firing(condition: condition, time: time, count: nil, stalledFor: stalled)
                }
            }
        }
        return nil
    }
}
