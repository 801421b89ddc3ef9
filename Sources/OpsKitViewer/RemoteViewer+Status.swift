extension RemoteViewer {
    /// How the link is.
    public enum Link: Sendable, Equatable {
        case connecting, connected, disconnected
    }

    /// The link and what it is connected to.
    public struct Status: Sendable, Equatable {
        public var link: Link
        /// "connected", "app went away", "cannot connect to …" (without the retry countdown:
        /// see `text(at:)`). A socket file that no longer exists: see `RemoteViewer.socketGone`.
        public var detail: String
        public var welcome: ViewerCore.Welcome?
        /// While disconnected, when the next connection attempt starts; nil when none is planned
        /// (connected, or a viewer that does not reconnect).
        public var nextAttempt: ContinuousClock.Instant?
        /// Why the picture does not follow every change right now: the reason of the last
        /// `resync` ("burst": the app changes faster than any viewer follows, and sends a
        /// fresh picture now and then), until a change is applied from the stream again.
        public var resyncReason: String?

        /// `detail`, and while an attempt is planned the whole seconds left until it, counted
        /// down from `now`: "app went away; retrying in 3 s", "…; retrying in 1 s", then
        /// "…; retrying now" once it is due.
        public func text(at now: ContinuousClock.Instant = .now) -> String {
            countdown(at: now).map { "\(detail); \($0)" } ?? detail
        }

        /// While an attempt is planned, the countdown alone: "retrying in 3 s", …, "retrying
        /// now" (what a narrow header keeps when `text(at:)` does not fit); nil otherwise.
        public func countdown(at now: ContinuousClock.Instant = .now) -> String? {
            guard let nextAttempt else { return nil }
            let left = now.duration(to: nextAttempt)
            guard left > .zero else { return "retrying now" }
            let (seconds, attoseconds) = left.components
            return "retrying in \(seconds + (attoseconds > 0 ? 1 : 0)) s"
        }
    }
}
