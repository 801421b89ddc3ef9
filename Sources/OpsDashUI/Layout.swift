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
    public init(width: Int, height: Int, showDetails: Bool) {
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
    }

    /// The layout for `state`.
    public init(_ state: DashboardState) {
        self.init(width: state.width, height: state.height, showDetails: state.showDetails)
    }
}
