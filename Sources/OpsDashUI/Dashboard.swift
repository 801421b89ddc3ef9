import OpsMonitor

/// Characters the widgets draw with: Unicode box/block glyphs, or ASCII when the locale can't
/// show them.
public enum GlyphSet: Sendable, Equatable {
    case unicode, ascii
}

/// Everything that happens to the dashboard: keys, a new snapshot on each frame tick, a resize.
public enum Action: Sendable {
    case key(Key)
    case tick(QueueSnapshot)
    case resize(width: Int, height: Int)
}

/// The dashboard's whole state. Pure value; changed only by `reduce`.
public struct DashboardState: Sendable {
    public var width: Int
    public var height: Int
    public var glyphs: GlyphSet
    public var snapshot: QueueSnapshot

    /// A dashboard of the given terminal size showing an empty queue.
    public init(width: Int, height: Int, glyphs: GlyphSet = .unicode) {
        self.width = width
        self.height = height
        self.glyphs = glyphs
        self.snapshot = QueueSnapshot()
    }
}

/// Applies `action` to `state` and returns what the run loop must do to the real queue.
public func reduce(_ state: inout DashboardState, _ action: Action) -> [Command] {
    switch action {
    case .tick(let snapshot): state.snapshot = snapshot
    case .resize(let width, let height):
        state.width = width
        state.height = height
    case .key(.character("q")): return [.quit]
    case .key: break
    }
    return []
}

/// Renders the whole screen for `state` into a `width × height` buffer.
public func render(_ state: DashboardState) -> CellBuffer {
    var buffer = CellBuffer(width: state.width, height: state.height)
    buffer.write("opsdash", x: 0, y: 0, style: CellStyle(bold: true))
    return buffer
}
