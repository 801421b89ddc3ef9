/// How long a reconnecting viewer waits before each attempt: 0.25 s, doubling up to 4 s, and
/// 0.25 s again after a connection of a viewer the publisher had welcomed.
///
/// Pure: the viewer's reader thread asks it for each wait and sleeps that long on its clock.
struct ReconnectSchedule: Sendable, Equatable {
    /// The first wait, and the wait after a reset.
    static let shortest: Duration = .milliseconds(250)
    /// The longest wait: attempts go on every 4 s while the app stays away.
    static let longest: Duration = .seconds(4)

    /// The wait `take()` answers next.
    private(set) var next = Self.shortest

    /// The wait before the next attempt; the one after it is twice as long (at most `longest`).
    mutating func take() -> Duration {
        defer { next = min(next * 2, Self.longest) }
        return next
    }

    /// Starts over from `shortest` (a connection ended after the viewer had been welcomed).
    mutating func reset() {
        next = Self.shortest
    }
}
