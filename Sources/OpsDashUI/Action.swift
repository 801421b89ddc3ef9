import OpsMonitor

/// Everything that happens to the dashboard: keys, a new snapshot on each frame tick, a resize.
public enum Action: Sendable {
    case key(Key)
    case tick(QueueSnapshot)
    case resize(width: Int, height: Int)
    /// The source's target or link state changed.
    case source(SourceStatus)
    /// The source refused `command` (nil: a command not said); the reason shows in the message
    /// line, and a pending limit or pause that the refused command asked for is forgotten.
    case refused(String, command: Command? = nil)
    /// Something opsdash says while the screen is up (where its stderr cannot be seen), e.g.
    /// where metrics are served; shows in the message line.
    case notice(String)
    /// A notice has been up long enough: the message line goes back to the key hints if it
    /// still shows that notice (a message said since stays).
    case noticeExpired(String)
}
