import OpsMonitor

/// Where each part of the screen goes for a terminal size and the open panes.
public struct Layout: Sendable, Equatable {
    /// The narrowest terminal the dashboard lays out in; below it, one "enlarge" line shows.
    public static let minimumWidth = 60
    /// The shortest terminal the dashboard lays out in.
    public static let minimumHeight = 12
    /// Rows the event log takes (title included) when the terminal is tall enough.
    public static let logHeight = 7
    /// Terminal height from which the event log shows.
    public static let logMinimumTerminalHeight = 30

    /// A band of rows: first row and count.
    public struct Band: Sendable, Equatable {
        /// The band's first row.
        public var y: Int
        /// Rows in the band.
        public var height: Int

        /// `height` rows from row `y`.
        public init(y: Int, height: Int) {
            self.y = y
            self.height = height
        }
    }

    /// False when the terminal is below the minimum size.
    public var fits: Bool
    /// Header lines (3).
    public var header: Band
    /// The table or tree, column header included.
    public var main: Band
    /// The details pane, when open.
    public var details: Band?
    /// The event log, when tall enough.
    public var log: Band?
    /// The footer line.
    public var footer: Band

    /// Rows of operations the table or tree shows (its column-header line excluded).
    public var visibleRows: Int { max(0, main.height - 1) }

    /// The layout for a `width × height` terminal with the given panes open.
    ///
    /// `tableRows` (operations listed) and `logLines` (event lines there are to show), when
    /// given, let the event log take the height the table leaves unused.
    public init(width: Int, height: Int, showDetails: Bool, tableRows: Int? = nil, logLines: Int? = nil) {
        fits = width >= Self.minimumWidth && height >= Self.minimumHeight
        header = Band(y: 0, height: 3)
        footer = Band(y: max(0, height - 1), height: 1)
        var bottom = max(0, height - 1)
        if height >= Self.logMinimumTerminalHeight {
            bottom -= Self.logHeight
            log = Band(y: bottom, height: Self.logHeight)
        } else {
            log = nil
        }
        let middle = max(0, bottom - 3)
        if showDetails {
            let paneHeight = max(4, min(12, middle / 2))
            bottom -= paneHeight
            details = Band(y: bottom, height: paneHeight)
        } else {
            details = nil
        }
        main = Band(y: 3, height: max(0, bottom - 3))
        // Height the table doesn't use goes to the log, up to what the log has to show.
        if let tableRows, let logLines {
            let spare = main.height - 1 - tableRows
            let hidden = logLines - max(0, (log?.height ?? 0) - 1)
            let minimum = log == nil ? Self.minimumSpareLog : 1
            let grow = min(spare, hidden + (log == nil ? 1 : 0))
            if grow >= minimum && hidden > 0 {
                main.height -= grow
                details?.y -= grow
                let logY = (details?.y ?? (main.y + main.height)) + (details?.height ?? 0)
                log = Band(y: logY, height: (log?.height ?? 0) + grow)
            }
        }
    }

    /// The fewest rows (title included) an event log takes on a terminal too short for the
    /// standing one, when the table leaves them free.
    public static let minimumSpareLog = 4

    /// The layout for `state`.
    public init(_ state: DashboardState) {
        self.init(width: state.width, height: state.height, showDetails: state.showDetails)
        let rows = state.rows.count(in: state.snapshot)
        // The merged log is counted only when the table leaves height unused.
        guard fits, main.height - 1 > rows, !state.snapshot.log.isEmpty else { return }
        self.init(
            width: state.width, height: state.height, showDetails: state.showDetails,
            tableRows: rows, logLines: LogLine.count(state.snapshot.log))
    }
}

/// Renders the whole screen for `state` into a `width × height` buffer.
///
/// Cost depends on the visible rows: with the id sort and no filter, rows are read straight
/// from the snapshot; otherwise from the rows `reduce` cached for this snapshot version.
public func render(_ state: DashboardState) -> CellBuffer {
    var buffer = CellBuffer(width: 0, height: 0)
    render(state, into: &buffer, cache: nil)
    return buffer
}

/// Renders the whole screen for `state` into `buffer`, reusing its storage; with a `cache`,
/// table and log rows whose inputs didn't change are copied from earlier frames.
func render(_ state: DashboardState, into buffer: inout CellBuffer, cache: RenderCache?) {
    buffer.reset(width: state.width, height: state.height)
    let layout = Layout(state)
    guard layout.fits else {
        renderTooSmall(into: &buffer, glyphs: state.glyphs)
        return
    }
    // A state changed outside `reduce` (tests, callers) still renders consistently.
    var state = state
    refreshRows(&state)
    followSelection(&state)

    HeaderView(state: state).render(into: &buffer, y: layout.header.y)
    if state.showDependencies {
        TreeView(state: state).render(into: &buffer, band: layout.main)
    } else {
        TableView(state: state, cache: cache).render(into: &buffer, band: layout.main)
    }
    if let details = layout.details {
        DetailsView(state: state).render(into: &buffer, band: details)
    }
    if let log = layout.log { LogView(state: state, cache: cache).render(into: &buffer, band: log) }
    FooterView(state).render(into: &buffer, area: layout.footer.rect(width: buffer.width))
    if state.showHelp {
        HelpOverlay(glyphs: state.glyphs, replay: state.source?.isReplay == true).render(
            into: &buffer, scroll: state.helpScroll)
        cache?.forgetPlacement()
    }
}

/// What the screen says when the terminal is below the minimum size.
func tooSmallMessage(glyphs: GlyphSet) -> String {
    let times = glyphs == .unicode ? "×" : "x"
    return "enlarge the terminal (needs \(Layout.minimumWidth)\(times)\(Layout.minimumHeight))"
}

/// The "enlarge" message, word-wrapped and centred; shorter forms when the full one doesn't fit,
/// so some of it shows at any size.
private func renderTooSmall(into buffer: inout CellBuffer, glyphs: GlyphSet) {
    guard buffer.width > 0, buffer.height > 0 else { return }
    let times = glyphs == .unicode ? "×" : "x"
    let size = "\(Layout.minimumWidth)\(times)\(Layout.minimumHeight)"
    let candidates = [tooSmallMessage(glyphs: glyphs), "enlarge to \(size)", "enlarge \(size)", size]
    var lines: [[Span]] = []
    for candidate in candidates {
        let words = candidate.split(separator: " ").map { Span(String($0), Theme.warning) }
        lines = wrap(words, separator: Span(" ", Theme.warning), width: buffer.width)
        if lines.count <= buffer.height { break }
    }
    let top = max(0, (buffer.height - lines.count) / 2)
    for (offset, line) in lines.prefix(buffer.height).enumerated() {
        let width = line.reduce(0) { $0 + $1.width }
        buffer.write(line, x: max(0, (buffer.width - width) / 2), y: top + offset, maxWidth: buffer.width)
    }
}
