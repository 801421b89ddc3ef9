import OpsMonitor

/// Where a replay is on the recording's clock, for the header: `0:05 / 0:30 ×1 playing`
/// (`x1` when the terminal shows ASCII only). The header keeps this whole and shortens the
/// recording's name before it, so the play state is never cut at 60 columns or more.
public struct Playback: Sendable, Equatable {
    /// Playing, paused, or at the end of the recording.
    public enum State: String, Sendable {
        case playing, paused, end
    }

    /// The recording time shown.
    public var position: Duration
    /// The recording's length.
    public var length: Duration
    /// How many times faster than recorded it plays.
    public var speed: Double
    public var state: State
    /// The recording's per-second history over its whole length, for the history view's
    /// timeline; the position is its cursor.
    package var timeline: QueueHistory?

    public init(position: Duration, length: Duration, speed: Double, state: State) {
        self.position = position
        self.length = length
        self.speed = speed
        self.state = state
    }

    /// `0:05 / 0:30 ×1 playing`, with the speed in `glyphs`' multiplication sign.
    func text(glyphs: GlyphSet) -> String {
        let ascii = glyphs == .ascii
        let speed = speed == 1 ? (ascii ? "x1" : "×1") : Format.speed(speed, ascii: ascii)
        return "\(Self.clock(position)) / \(Self.clock(length)) \(speed) \(state.rawValue)"
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    package static func clock(_ time: Duration) -> String {
        let total = max(0, time.components.seconds)
        let seconds = (total % 60 < 10 ? "0" : "") + "\(total % 60)"
        guard total >= 3600 else { return "\(total / 60):\(seconds)" }
        let minutes = total / 60 % 60
        return "\(total / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(seconds)"
    }
}
