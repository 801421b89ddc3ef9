/// The fleet list screen's state: the rows, the selection (by row id, so it stays on its app
/// while rows come and go), the `/` filter and the message line.
package struct FleetListState: Sendable {
    package var width: Int
    package var height: Int
    package var glyphs: GlyphSet
    package var rows: [FleetRow] = []
    package var selectedID: String?
    package var filter = ""
    package var isEditingFilter = false
    package var filterBeforeEdit = ""
    package var message: String?
    /// Whether the help overlay (`?`) is shown.
    package var showHelp = false
    /// The first help line shown, when the help is taller than the terminal.
    package var helpScroll = 0
    /// How long a departed app stays listed, in seconds (said in the header).
    package var keepDeparted: Int

    package init(width: Int, height: Int, glyphs: GlyphSet, keepDeparted: Int) {
        self.width = width
        self.height = height
        self.glyphs = glyphs
        self.keepDeparted = keepDeparted
    }

    /// The rows the filter lets through, in order.
    package var shownRows: [FleetRow] { rows.filter { $0.matches(filter) } }

    /// The selected row's index among `shownRows` (the first when the selected one is not shown).
    package var selectedIndex: Int {
        shownRows.firstIndex { $0.id == selectedID } ?? 0
    }

    /// The selected row, if any is shown.
    package var selectedRow: FleetRow? {
        let rows = shownRows
        return rows.isEmpty ? nil : rows[min(selectedIndex, rows.count - 1)]
    }
}

/// What the fleet list's loop feeds its reducer.
package enum FleetAction: Sendable, Equatable {
    case key(Key)
    case rows([FleetRow])
    case resize(width: Int, height: Int)
    /// A line for the message line (e.g. why an app could not be opened).
    case notice(String)
}

/// What the fleet list asks its loop to do.
package enum FleetCommand: Sendable, Equatable {
    /// Open the dashboard of the row with this id; Esc there comes back.
    case open(String)
    case repaint
    case quit
}
