/// Where the dashboard's picture comes from, shown in the header: a target such as
/// "app/queue" and the state of the link to it. A local run has none.
public struct SourceStatus: Sendable, Equatable {
    /// How the link to the source is.
    public enum Link: Sendable, Equatable {
        /// Receiving changes.
        case connected
        /// Trying to (re)connect; the picture is the last one received.
        case connecting
        /// Gone; the picture is the last one received.
        case disconnected
    }

    /// The target, e.g. "AppExample/downloads".
    public var label: String
    /// The link state in words, e.g. "connected (read-only)" or "disconnected: app exited".
    public var detail: String
    /// What a header too narrow for `detail` shows instead, e.g. "retrying in 3 s" (the
    /// countdown rather than the reason); nil: `detail` is cut.
    public var brief: String?
    public var link: Link
    /// The source plays a recording: the help and the footer show the replay keys.
    public var isReplay: Bool
    /// A replay's position, speed and play state, shown between `label` and `detail`.
    public var playback: Playback?
    /// Whether the source may take commands now (a replay never does; an attached app only
    /// when connected with control): when not, `C` is refused at once instead of asking first.
    public var acceptsCommands: Bool
    /// The source is an app attached read-only: the footer leaves out the keys that control the
    /// queue (c, C, p, +/-) and the help marks them "read-only".
    package var isReadOnly: Bool

    public init(
        label: String, detail: String, link: Link, brief: String? = nil, isReplay: Bool = false,
        playback: Playback? = nil, acceptsCommands: Bool = true, isReadOnly: Bool = false
    ) {
        self.label = label
        self.detail = detail
        self.brief = brief
        self.link = link
        self.isReplay = isReplay || playback != nil
        self.playback = playback
        self.acceptsCommands = acceptsCommands && !self.isReplay && !isReadOnly
        self.isReadOnly = isReadOnly
    }
}

extension Theme {
    /// The style of a source's link state: green when connected, yellow while connecting, red when gone.
    static func link(_ link: SourceStatus.Link) -> CellStyle {
        switch link {
        case .connected: CellStyle(foreground: .green)
        case .connecting: CellStyle(foreground: .yellow)
        case .disconnected: CellStyle(foreground: .red, bold: true)
        }
    }
}
