/// When a viewer gives up on a connection that went quiet: the publisher sends a heartbeat
/// every 2 s, so 7 s without any data (three missed) means the app is gone.
///
/// Pure: times are a `SimulationClock`'s `now`; the reader thread wakes at `deadline` and asks.
struct HeartbeatWatchdog: Sendable, Equatable {
    /// How long a connection may stay silent.
    static let silence: Duration = .seconds(7)

    /// When data came last (or the connection started).
    private(set) var lastData: Duration

    /// A watchdog for a connection that starts at `now`.
    init(since now: Duration) {
        lastData = now
    }

    /// Data came at `now`.
    mutating func heard(at now: Duration) {
        lastData = max(lastData, now)
    }

    /// When the connection counts as gone unless data comes first.
    var deadline: Duration { lastData + Self.silence }

    /// Whether the connection was silent for `silence` at `now`.
    func isSilent(at now: Duration) -> Bool { now >= deadline }
}
