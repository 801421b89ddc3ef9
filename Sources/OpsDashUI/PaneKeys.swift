import OpsMonitor

/// What the table pane shows when it lists the snapshot's operations by id (no sort, filter
/// or tree) and each row it shows is a finished operation's: such a row reads nothing that
/// changes besides its operation (no clock, no other operation's state), so the same rows of
/// the same operations, selection and search draw the same pane.
///
/// The operations are compared by their stamps (`ChunkedArray.elementStamps(in:)`): a row
/// whose operation has the stamp it had when the pane was drawn shows the same operation,
/// unchanged, whatever else changed in its chunk (a running operation below the table), so no
/// operation is copied or compared, and the store's chunks are not kept alive (the store would
/// copy each one it changes next).
struct TablePaneKey: Equatable {
    /// The stamps of the operations shown, top to bottom.
    var stamps: [UInt64]
    /// The first row's position and how many rows show.
    var first: Int
    var count: Int
    /// The ID column's width (from the highest id, which grows with every operation added).
    var idWidth: Int
    var selectedID: Int?
    var search: String
    var glyphs: GlyphSet

    /// The key for `state`'s table showing at most `rows` rows; nil unless it lists the
    /// operations by id. Whether every row shown has finished is for the caller to check.
    init?(_ state: borrowing DashboardState, rows: Int) {
        guard state.rows.isByID, !state.showDependencies else { return nil }
        let operations = state.snapshot.operations
        first = max(0, state.scrollOffset)
        count = max(0, min(rows, operations.count - first))
        stamps = operations.elementStamps(in: first..<(first + count))
        idWidth = TableColumn.idWidth(maxID: operations.last?.id ?? 0)
        selectedID = state.selectedID
        search = state.search
        glyphs = state.glyphs
    }
}

/// What the event log pane shows (not the command log): the log's entries, compared by
/// storage (`SharedLog.isSameStorage`), in as many lines, drawn with the same glyphs.
struct LogPaneKey: Equatable {
    var log: SharedLog
    var lines: Int
    var glyphs: GlyphSet

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.lines == rhs.lines && lhs.glyphs == rhs.glyphs && lhs.log.isSameStorage(as: rhs.log)
    }
}
