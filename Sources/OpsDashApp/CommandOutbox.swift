import OpsDashUI

/// Commands on their way to an attached app, paced below the app's limit on lines from a viewer
/// (20 per second, a burst of 40, by default; docs/PROTOCOL.md), so that a held-down key never
/// gets the viewer refused or disconnected.
///
/// Commands that set a state are merged while they wait: the last concurrency limit asked for
/// replaces an earlier one, a pause or resume replaces the other, and a cancel of an operation
/// already waiting to be cancelled is not repeated. So every key press counts: the app ends in
/// the state the last press asked for.
struct CommandOutbox {
    /// Commands sent per second at most, once the burst is spent.
    static let perSecond = 10.0
    /// Commands sent at once at most.
    static let burst = 10.0

    /// Commands not sent yet, oldest first.
    private(set) var waiting: [Command] = []
    private var allowance = Self.burst
    private var lastRefill: ContinuousClock.Instant

    /// An empty outbox whose burst is available from `now`.
    init(now: ContinuousClock.Instant) {
        lastRefill = now
    }

    /// Queues `command`, merged with a waiting one that it makes redundant.
    mutating func add(_ command: Command) {
        switch command {
        case .setMaxConcurrentOperationCount:
            waiting.removeAll { if case .setMaxConcurrentOperationCount = $0 { true } else { false } }
        case .setSuspended:
            waiting.removeAll { if case .setSuspended = $0 { true } else { false } }
        case .cancel, .cancelMany:
            if waiting.contains(command) || waiting.contains(.cancelAll) { return }
        case .cancelAll:
            waiting.removeAll {
                switch $0 {
                case .cancel, .cancelMany: true
                default: false
                }
            }
            if waiting.contains(.cancelAll) { return }
        case .repaint, .quit:
            return  // the run loop's own, never sent
        }
        waiting.append(command)
    }

    /// Takes the waiting commands that may be sent at `now`, oldest first.
    mutating func take(now: ContinuousClock.Instant) -> [Command] {
        let elapsed = max(0, (now - lastRefill).seconds)
        allowance = min(Self.burst, allowance + elapsed * Self.perSecond)
        lastRefill = now
        let count = min(waiting.count, Int(allowance))
        allowance -= Double(count)
        let taken = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        return taken
    }

    /// Forgets every waiting command (the link went away: they would be refused).
    mutating func clear() {
        waiting.removeAll()
    }
}
