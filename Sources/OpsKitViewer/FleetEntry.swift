import OpsMonitor

/// One published queue as the fleet list shows it: what its sidecar says and the latest
/// `status` it answered; a few numbers, never a picture of its operations.
@_spi(OpsDashInternals) public struct FleetEntry: Sendable, Equatable {
    /// Whether the app answers, was not heard yet, or went away.
    package enum Presence: String, Sendable, Equatable {
        /// Connected, no `status` answer yet.
        case connecting
        /// Answered `status`.
        case live
        /// Its sidecar or process is gone (shown greyed until `FleetBook.keepDeparted` passed).
        case departed
    }

    /// Throughput samples kept per app (one per round): what the sparkline shows.
    package static let throughputSamples = 30

    package var published: PublishedQueue
    package var presence: Presence = .connecting
    /// Whether the app lets this user steer it (the role its `welcome` grants); nil before it.
    package var controlAllowed: Bool?
    package var suspended = false
    package var limit = 0
    /// Nil until the first `status` answer.
    package var counts: StateCounts?
    /// Streaming viewers (the sidecar's count until a `status` says).
    package var viewers: Int
    /// Operations finished per second between two `status` answers, oldest first (at most
    /// `throughputSamples`).
    package var throughput: [Double] = []
    /// When it last answered (seconds since 1970); nil before its first answer.
    package var lastSeen: Double?
    /// When it was found gone (seconds since 1970).
    package var departedAt: Double?
    /// When (seconds since 1970) and with what finished count it last answered (for the next
    /// throughput sample).
    var lastAnswer: (time: Double, finished: Int)?

    package init(published: PublishedQueue) {
        self.published = published
        viewers = published.viewers
    }

    /// "app/queue".
    package var label: String { published.label }

    @_spi(OpsDashInternals) public static func == (left: FleetEntry, right: FleetEntry) -> Bool {
        left.published == right.published && left.presence == right.presence
            && left.controlAllowed == right.controlAllowed && left.suspended == right.suspended
            && left.limit == right.limit && left.counts == right.counts && left.viewers == right.viewers
            && left.throughput == right.throughput && left.lastSeen == right.lastSeen
            && left.departedAt == right.departedAt
    }
}
