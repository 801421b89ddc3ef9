/// Derives the rate of operations that report progress without one
/// (`OperationProgress.unitsPerSecond == nil`) from their reports' clock times: units moved
/// over at least `window`, so closely spaced reports don't make it jump.
struct RateEstimator {
    private struct Anchor {
        var time: Duration
        var completed: Int64
        var rate: Double
    }

    /// Shortest span a rate is measured over, once one span has been measured.
    static let window = Duration.milliseconds(500)
    private var anchors: [Int: Anchor] = [:]

    /// The rate of operation `id` at `time`, having done `completed` units; `start` is where
    /// the first span begins (the operation's start, with what it had done then).
    mutating func rate(id: Int, completed: Int64, time: Duration, start: (time: Duration, completed: Int64)) -> Double {
        var anchor = anchors[id] ?? Anchor(time: start.time, completed: start.completed, rate: 0)
        let elapsed = time - anchor.time
        var rate = anchor.rate
        guard elapsed > .zero else { return rate }
        if elapsed >= Self.window || (anchor.rate == 0 && elapsed > .zero) {
            rate = max(0, Double(completed - anchor.completed) / elapsed.seconds)
            if elapsed >= Self.window {
                anchor = Anchor(time: time, completed: completed, rate: rate)
            }
        }
        anchors[id] = anchor
        return rate
    }

    /// Starts over for operation `id` from `completed` units at `time` (when the next attempt
    /// starts after a retry wait).
    mutating func restart(_ id: Int, at time: Duration, completed: Int64) {
        anchors[id] = Anchor(time: time, completed: completed, rate: 0)
    }

    /// Forgets operation `id` (once it finished).
    mutating func forget(_ id: Int) {
        anchors[id] = nil
    }
}
