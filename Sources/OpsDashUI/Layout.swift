import OpsMonitor

/// The rectangle of every part of the screen for a terminal size and what is shown: the
/// renderer draws each widget into its rectangle and nowhere else.
///
/// When the terminal fits, `regions` tile the screen without overlapping: header, table or
/// tree, details (open), event log (tall enough), footer, top to bottom; the help overlay's
/// box (open) sits centred over them. Below the minimum size only `screen` is drawn, with the
/// "enlarge" message.
public struct Layout: Sendable, Equatable {
    /// The narrowest terminal the dashboard lays out in; below it, one "enlarge" line shows.
    public static let minimumWidth = 60
    /// The shortest terminal the dashboard lays out in.
    public static let minimumHeight = 12
    /// Rows the event log takes (title included) when the terminal is tall enough.
    public static let logHeight = 7
    /// Terminal height from which the event log shows.
    public static let logMinimumTerminalHeight = 30
    /// The fewest rows (title included) an event log takes on a terminal too short for the
    /// standing one, when the table leaves them free.
    public static let minimumSpareLog = 4

    /// False when the terminal is below the minimum size.
    public var fits: Bool
    /// The whole terminal; where the "enlarge" message goes when the dashboard doesn't fit.
    public var screen: Rect
    /// Header lines (3).
    public var header: Rect
    /// The table or tree, column header included.
    public var main: Rect
    /// The history view (`h`), when open: the top of the middle, the table or tree below it
    /// when at least `minimumTableUnderHistory` rows are left, else the whole middle.
    package var history: Rect?
    /// The fewest rows (column header included) the table keeps under the history view.
    package static let minimumTableUnderHistory = 6
    /// The details pane, when open.
    public var details: Rect?
    /// The event log, when tall enough.
    public var log: Rect?
    /// The footer line.
    public var footer: Rect
    /// The help overlay's box, when the help is open.
    public var help: Rect?

    /// Rows of operations the table or tree shows (its column-header line excluded).
    public var visibleRows: Int { max(0, main.height - 1) }

    /// The regions drawn side by side (the help overlay is drawn over them): the panes when
    /// the terminal fits, else the whole screen.
    public var regions: [Rect] {
        guard fits else { return [screen] }
        return [header] + [history].compactMap { $0 } + [main] + [details, log].compactMap { $0 } + [footer]
    }

    /// The layout for a `width × height` terminal with the given panes open.
    ///
    /// `tableRows` (operations listed) and `logLines` (event lines there are to show), when
    /// given, let the event log take the height the table leaves unused. `helpLines`, when
    /// given, opens the help overlay's box for that many lines of help.
    public init(
        width: Int, height: Int, showDetails: Bool, tableRows: Int? = nil, logLines: Int? = nil,
        helpLines: Int? = nil, showHistory: Bool = false
    ) {
        let width = max(0, width)
        let height = max(0, height)
        fits = width >= Self.minimumWidth && height >= Self.minimumHeight
        screen = Rect(x: 0, y: 0, width: width, height: height)
        header = screen.band(0, min(3, height))
        footer = screen.band(max(0, height - 1), min(1, height))
        main = screen.band(3, 0)
        stackPanes(showDetails: showDetails)
        if let tableRows, let logLines { growLog(tableRows: tableRows, logLines: logLines) }
        if showHistory { placeHistory() }
        help = helpLines.map { HelpOverlay.box(lines: $0, in: screen) }
        if !fits { clipToScreen() }
    }

    /// Stacks the log (on a tall enough terminal) above the footer, the details (open) above
    /// it, and the table in what is left under the header.
    private mutating func stackPanes(showDetails: Bool) {
        var bottom = max(0, screen.height - 1)
        if screen.height >= Self.logMinimumTerminalHeight {
            bottom -= Self.logHeight
            log = screen.band(bottom, Self.logHeight)
        }
        let middle = max(0, bottom - 3)
        if showDetails {
            let paneHeight = max(4, min(12, middle / 2))
            bottom -= paneHeight
            details = screen.band(bottom, paneHeight)
        }
        main = screen.band(3, bottom - 3)
    }

    /// Gives the height the table's `tableRows` leave unused to the log, up to what its
    /// `logLines` need.
    private mutating func growLog(tableRows: Int, logLines: Int) {
        let spare = main.height - 1 - tableRows
        let hidden = logLines - max(0, (log?.height ?? 0) - 1)
        let minimum = log == nil ? Self.minimumSpareLog : 1
        let grow = min(spare, hidden + (log == nil ? 1 : 0))
        guard grow >= minimum && hidden > 0 else { return }
        main.height -= grow
        details?.y -= grow
        let logY = (details?.y ?? main.maxY) + (details?.height ?? 0)
        log = screen.band(logY, (log?.height ?? 0) + grow)
    }

    /// Half the middle (at least 9 rows: a row a series, the title and the axis) for the
    /// history view when the table keeps enough rows under it; else all of it.
    private mutating func placeHistory() {
        let rows = max(9, main.height / 2)
        if main.height - rows >= Self.minimumTableUnderHistory {
            history = screen.band(main.y, rows)
            main = screen.band(main.y + rows, main.height - rows)
        } else {
            history = main
            main = screen.band(main.maxY, 0)
        }
    }

    /// Below the minimum size the panes can run off the screen; they are not drawn there, but
    /// no rectangle leaves it (`main` never does: it ends above the footer).
    private mutating func clipToScreen() {
        header = header.intersection(screen)
        details = details?.intersection(screen)
        log = log?.intersection(screen)
        footer = footer.intersection(screen)
    }

    /// The layout for `state`.
    public init(_ state: borrowing DashboardState) {
        let helpLines =
            state.showHelp
            ? HelpOverlay(state)
                .lines(terminalWidth: state.width).count : nil
        self.init(
            width: state.width, height: state.height, showDetails: state.showDetails, helpLines: helpLines,
            showHistory: state.showHistory)
        let rows = state.rows.count(in: state.snapshot)
        // The merged log is counted only when the table leaves height unused.
        guard fits, main.height - 1 > rows, !state.snapshot.sharedLog.isEmpty else { return }
        self.init(
            width: state.width, height: state.height, showDetails: state.showDetails,
            tableRows: rows, logLines: state.shownLogLineCount, helpLines: helpLines,
            showHistory: state.showHistory)
    }
}

extension Rect {
    /// The full-width band of `rows` rows from row `y`.
    fileprivate func band(_ y: Int, _ rows: Int) -> Rect { Rect(x: 0, y: y, width: width, height: rows) }
}
