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
    /// The source's target or link state changed.
    case source(SourceStatus)
    /// The source refused a command; the reason shows in the message line.
    case refused(String)
}

/// The order the table lists operations in; `s` cycles through them.
public enum SortOrder: String, Sendable, Equatable, CaseIterable {
    case id, state, progress, rate

    /// The next order in the `s` cycle: id → state → progress → rate → id.
    public var next: SortOrder {
        switch self {
        case .id: .state
        case .state: .progress
        case .progress: .rate
        case .rate: .id
        }
    }
}

/// A question the dashboard is waiting for the operator to answer.
public enum Prompt: Sendable, Equatable {
    /// "Cancel all N unfinished operations? (y/n)".
    case cancelAll(count: Int)
}

/// The dashboard's whole state. Pure value; changed only by `reduce`.
public struct DashboardState: Sendable {
    /// Terminal width in cells.
    public var width: Int
    /// Terminal height in cells.
    public var height: Int
    /// Unicode or ASCII drawing.
    public var glyphs: GlyphSet
    /// The newest snapshot of the queue.
    public var snapshot: QueueSnapshot
    /// The selected operation's id, which the selection follows when rows move.
    public var selectedID: Int?
    /// The selected row's index at the last update, to pick the nearest row when it goes away.
    public var selectedIndex: Int = 0
    /// The first visible row of the table or tree.
    public var scrollOffset: Int = 0
    /// The table's order.
    public var sort: SortOrder = .id
    /// The filter text (matches name, `#id` and state, case-insensitively); empty for none.
    public var filter: String = ""
    /// Whether typed characters currently edit the filter.
    public var isEditingFilter = false
    /// Whether the details pane is open.
    public var showDetails = false
    /// Whether the dependency tree replaces the table.
    public var showDependencies = false
    /// Whether the help overlay is shown.
    public var showHelp = false
    /// The question waiting for an answer, if any.
    public var prompt: Prompt?
    /// A concurrency limit asked for and not yet confirmed by a snapshot.
    public var pendingConcurrency: Int?
    /// Where the picture comes from (nil for a local run), shown in the header.
    public var source: SourceStatus?
    /// A one-line message (e.g. why a command was refused), shown in the footer until the next key.
    public var notice: String?
    /// Rows for the current sort, filter and view, rebuilt when the snapshot version changes.
    public var rows: RowOrder = .byID

    /// A dashboard of the given terminal size showing an empty queue.
    public init(width: Int, height: Int, glyphs: GlyphSet = .unicode) {
        self.width = width
        self.height = height
        self.glyphs = glyphs
        self.snapshot = QueueSnapshot()
    }

    /// The concurrency limit to show: the pending request, or the snapshot's.
    public var effectiveConcurrency: Int {
        pendingConcurrency ?? snapshot.maxConcurrentOperationCount
    }

    /// The selected operation, found in O(log n).
    public var selectedOperation: OperationSnapshot? {
        selectedID.flatMap { snapshot.operation(id: $0) }
    }
}
