import OpsKit

/// Tells a publisher when its queue changes faster than any viewer can follow (a burst) and
/// when it calms down again, from counts of changes and the times they were counted at. Pure:
/// the caller passes both.
///
/// A burst starts once `minimumChanges` changes came at `rate` per second or faster (counted
/// from the end of the last look that decided anything; a flurry of fewer changes is not
/// one, however fast). It ends once a look spanning at least `span` saw fewer than half of
/// `rate`: long enough that a stall of the app's threads (a lock held while a large batch is
/// added) does not end a burst that goes on after it, which would cost every viewer a
/// snapshot of the whole backlog.
package struct BurstDetector: Sendable {
    /// Changes per second from which the queue is in a burst; 0 never is.
    package let rate: Double
    /// The fewest changes that start a burst.
    package let minimumChanges: Int
    /// The shortest time a falling rate is measured over (the longest a burst outlasts the
    /// changes).
    package let span: Duration

    /// When the current look started, and the changes counted in it so far.
    private var lookStart: Duration?
    private var counted = 0
    /// Whether the queue is in a burst.
    package private(set) var isInBurst = false

    package init(rate: Double, minimumChanges: Int, span: Duration = .milliseconds(100)) {
        self.rate = rate.isFinite ? max(0, rate) : 0
        self.minimumChanges = max(1, minimumChanges)
        self.span = span
    }

    /// Starts counting afresh at `time`, not in a burst.
    package mutating func reset(at time: Duration) {
        lookStart = time
        counted = 0
        isInBurst = false
    }

    /// A burst starts at `time` whatever the counts say (more changes came than the caller
    /// could hold, so it could not count them all).
    package mutating func begin(at time: Duration) {
        lookStart = time
        counted = 0
        isInBurst = true
    }

    /// Counts `changes` seen up to `time`; returns whether that starts or ends a burst (read
    /// `isInBurst` for which).
    package mutating func count(_ changes: Int, at time: Duration) -> Bool {
        guard rate > 0 else { return false }
        guard let start = lookStart, time >= start else {
            reset(at: time)
            return false
        }
        counted += max(0, changes)
        let elapsed = max(time - start, .nanoseconds(1))
        let perSecond = Double(counted) / elapsed.seconds
        if isInBurst {
            guard elapsed >= span else { return false }
            lookStart = time
            counted = 0
            guard perSecond < rate / 2 else { return false }
            isInBurst = false
            return true
        }
        if counted >= minimumChanges {
            lookStart = time
            counted = 0
            guard perSecond >= rate else { return false }
            isInBurst = true
            return true
        }
        if Double(minimumChanges) / elapsed.seconds < rate {
            // Too slow already to reach the minimum at the rate: start a new look.
            lookStart = time
            counted = 0
        }
        return false
    }
}
