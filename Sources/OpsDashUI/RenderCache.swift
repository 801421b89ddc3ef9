import OpsMonitor

/// Rows rendered in earlier frames, by what they were rendered from, and which screen row each
/// frame's reused rows went to.
///
/// A row is the cells of one line of a widget's area; it stands for its whole screen row (and
/// lets the renderer skip comparing that row) only when the area spans the screen's width.
///
/// Used from the run loop's thread alone, and no access to a property overlaps another: its
/// properties are `@exclusivity(unchecked)`, since the run-time check of each access (a
/// thread-local access set, ~150 instructions) came to ~7% of the dashboard loop's.
final class RenderCache {
    /// A rendered row: its cells and a serial number that changes whenever it is re-rendered.
    struct Row<Key> {
        var key: Key
        var cells: [Cell]
        var serial: Int
    }

    /// What every table row depends on besides its operation: the width and column layout,
    /// glyphs and filter. When it changes, every cached table row is dropped.
    struct TableContext: Equatable {
        var width: Int
        var idWidth: Int
        var glyphs: GlyphSet
        var needle: String
        var searchNeedle: String
    }

    /// What the table's column-header line and its column layout are computed from.
    struct TableHeadingKey: Equatable {
        var width: Int
        var idWidth: Int
    }

    /// Everything a log row shows is computed from these.
    struct LogKey: Equatable {
        var entry: LogEntry
        var repeats: Int
        var width: Int
        var glyphs: GlyphSet
    }

    @exclusivity(unchecked) private var tableContext: TableContext?
    /// Table rows by operation id, each kept by the row it was drawn from (`TableView.Row`
    /// holds exactly what its cells read).
    @exclusivity(unchecked) private var tableRows: [Int: Row<TableView.Row>] = [:]
    @exclusivity(unchecked) private var nextTableRows: [Int: Row<TableView.Row>] = [:]
    @exclusivity(unchecked) private var logRows: [Row<LogKey>] = []
    /// The table's column-header line and the columns it laid out, with what both came from.
    @exclusivity(unchecked)
    private var tableHeading: (row: Row<TableHeadingKey>, columns: [(column: TableColumn, width: Int)])?
    /// The header's three lines, each with the key it was drawn from (typed, not
    /// `any Equatable`: a boxed key cost an allocation a store and a dynamic cast a frame; a
    /// slot of its own each, not one enum of the three keys, which was copied, compared and
    /// destroyed through its type's value witnesses, ~4,000 instructions a frame).
    @exclusivity(unchecked) private var headerTitle: Row<HeaderView.TitleKey>?
    @exclusivity(unchecked) private var headerCounts: Row<HeaderView.CountsKey>?
    @exclusivity(unchecked) private var headerProgress: Row<HeaderView.ProgressKey>?
    /// The left of the footer (all of it but the position), and what the footer row showed last:
    /// that left part's serial, the position, and the row's serial.
    @exclusivity(unchecked) private var footerLeft: Row<FooterView.LeftKey>?
    @exclusivity(unchecked) private var footerShown: (left: Int, position: String, serial: Int)?
    /// The footer's hints last made, with what they were made from.
    @exclusivity(unchecked) private var footerHints: (key: FooterView.HintsKey, hints: [FooterView.Hint])?
    /// The frame on screen while the next one is drawn: a pane drawn there from inputs equal
    /// to its inputs now is copied from it.
    @exclusivity(unchecked) private var onScreen = CellBuffer(width: 0, height: 0)
    /// Per pane, what it was drawn from and where: in the frame on screen, in this one.
    @exclusivity(unchecked) private var tablePane: Pane<TablePaneKey>?
    @exclusivity(unchecked) private var nextTablePane: Pane<TablePaneKey>?
    @exclusivity(unchecked) private var logPane: Pane<LogPaneKey>?
    @exclusivity(unchecked) private var nextLogPane: Pane<LogPaneKey>?
    /// Per screen row, whether this frame copied it whole from the frame on screen.
    @exclusivity(unchecked) private var copied: [Bool] = []
    /// Whether this frame is drawn over the frame on screen (`beginFrame(inPlace:)`).
    @exclusivity(unchecked) private var inPlace = false
    /// In place: the rows as the frame on screen showed them, for those this frame blanked
    /// (`touched`) to draw them again; the other rows are the screen's, unchanged.
    @exclusivity(unchecked) private(set) var before = CellBuffer(width: 0, height: 0)
    @exclusivity(unchecked) private var touched: [Bool] = []

    /// A pane's inputs and area.
    private struct Pane<Key: Equatable> {
        var key: Key
        var area: Rect
    }

    @exclusivity(unchecked) private var nextLogRows: [Row<LogKey>] = []
    @exclusivity(unchecked) private var serial = 0
    /// Per screen row, the serial of the cached row placed there this frame (0: none).
    @exclusivity(unchecked) private var placed: [Int] = []
    /// The same for the frame on screen.
    @exclusivity(unchecked) private var placedBefore: [Int] = []

    /// Starts a frame drawn over the buffer the terminal shows, when it is `width × height`:
    /// each region drawn is blanked first (`blank(_:in:)`, keeping its rows in `before`), a pane
    /// whose inputs didn't change is left as it is, and only the rows blanked can differ
    /// (`isTouched(row:)`). False when the frame on screen is not of that size (then it is
    /// drawn from blank, and every row differs).
    func beginFrame(inPlace onScreen: CellBuffer, width: Int, height: Int) -> Bool {
        beginFrame(height: height)
        inPlace = onScreen.width == width && onScreen.height == height && width > 0 && height > 0
        guard inPlace else { return false }
        if before.width != width || before.height != height { before = CellBuffer(width: width, height: height) }
        if touched.count != height {
            touched = Array(repeating: false, count: height)
        } else {
            Self.clear(&touched)
        }
        return true
    }

    /// Whether `buffer` is the frame on screen this frame is drawn over.
    func drawsInPlace(on buffer: CellBuffer, width: Int, height: Int) -> Bool {
        inPlace && buffer.width == width && buffer.height == height
    }

    /// Drawing in place: blanks `area` of `buffer` to draw it again, first keeping the rows it
    /// spans in `before` (once a frame).
    func blank(_ area: Rect, in buffer: inout CellBuffer) {
        let clip = area.intersection(buffer.bounds)
        guard inPlace, !clip.isEmpty else { return }
        Self.keep(rows: clip.y..<clip.maxY, of: buffer, in: &before, marking: &touched)
        buffer.fill(x: clip.x, y: clip.y, width: clip.width, height: clip.height)
    }

    /// Copies the `rows` of `buffer` not yet marked in `touched` to `before`, and marks them.
    /// Static, over the cache's arrays passed in: one access to each, not one a row (a
    /// class's stored properties are checked for exclusive access at every access).
    private static func keep(
        rows: Range<Int>, of buffer: CellBuffer, in before: inout CellBuffer, marking touched: inout [Bool]
    ) {
        for row in rows where row < touched.count && !touched[row] {
            touched[row] = true
            before.copyCells(row: row, x: 0, count: buffer.width, from: buffer)
        }
    }

    /// Sets every element of `flags` to `false` (one access, as `keep(rows:of:in:marking:)`).
    private static func clear(_ flags: inout [Bool]) {
        flags.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
    }

    /// Drawing in place: whether row `y` was blanked and drawn again this frame (the others
    /// are as on screen).
    func isTouched(row y: Int) -> Bool {
        y < touched.count && touched[y]
    }

    /// Starts a frame `height` rows high, drawn over `onScreen`, the frame the terminal shows.
    func beginFrame(height: Int, onScreen: CellBuffer = CellBuffer(width: 0, height: 0)) {
        if placed.count != height {
            placed = Array(repeating: 0, count: height)
            placedBefore = Array(repeating: 0, count: height)
            copied = Array(repeating: false, count: height)
        } else {
            placed.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            Self.clear(&copied)
        }
        self.onScreen = onScreen
        inPlace = false
        nextTableRows.removeAll(keepingCapacity: true)
        nextLogRows.removeAll(keepingCapacity: true)
        nextTablePane = nil
        nextLogPane = nil
    }

    /// Ends the frame: rows and panes not drawn in it are forgotten.
    func endFrame() {
        swap(&tableRows, &nextTableRows)
        swap(&logRows, &nextLogRows)
        swap(&placed, &placedBefore)
        swap(&tablePane, &nextTablePane)
        swap(&logPane, &nextLogPane)
        // Not kept: the renderer draws the next frame into this buffer's storage.
        onScreen = CellBuffer(width: 0, height: 0)
    }

    /// Forgets everything (the screen is repainted from scratch).
    func clear() {
        tableContext = nil
        tableRows.removeAll()
        tableHeading = nil
        logRows.removeAll()
        headerTitle = nil
        headerCounts = nil
        headerProgress = nil
        footerLeft = nil
        footerShown = nil
        footerHints = nil
        tablePane = nil
        nextTablePane = nil
        logPane = nil
        nextLogPane = nil
        placed = []
        placedBefore = []
        copied = []
    }

    /// Whether screen row `y` holds the same rendered row as in the frame on screen.
    func isUnchanged(row y: Int) -> Bool {
        y < placed.count && (copied[y] || placed[y] != 0 && placed[y] == placedBefore[y])
    }

    /// Forgets where rows and panes went this frame (an overlay is drawn over them).
    func forgetPlacement() {
        placed.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        Self.clear(&copied)
        nextTablePane = nil
        nextLogPane = nil
    }

    /// Copies the table pane into `area` of `buffer` from the frame on screen, when it was drawn
    /// there in the same area from inputs equal to `key`; false when it must be drawn. The
    /// table's rows are kept with it.
    func copyTablePane(key: TablePaneKey, area: Rect, into buffer: inout CellBuffer) -> Bool {
        keep(tablePane, key: key, area: area, into: &buffer, as: &nextTablePane, rows: &tableRows, into: &nextTableRows)
    }

    /// Records that the table pane was drawn in `area` from `key` this frame.
    func drewTablePane(key: TablePaneKey, area: Rect) {
        nextTablePane = Pane(key: key, area: area)
    }

    /// `copyTablePane(key:area:into:)` for the event log pane and its rows.
    func copyLogPane(key: LogPaneKey, area: Rect, into buffer: inout CellBuffer) -> Bool {
        keep(logPane, key: key, area: area, into: &buffer, as: &nextLogPane, rows: &logRows, into: &nextLogRows)
    }

    /// Records that the event log pane was drawn in `area` from `key` this frame.
    func drewLogPane(key: LogPaneKey, area: Rect) {
        nextLogPane = Pane(key: key, area: area)
    }

    /// Keeps `pane` in this frame (`next`), with its rows, when it is copied from the frame on
    /// screen; false when it must be drawn.
    private func keep<Key, Rows>(
        _ pane: Pane<Key>?, key: Key, area: Rect, into buffer: inout CellBuffer, as next: inout Pane<Key>?,
        rows: inout Rows, into nextRows: inout Rows
    ) -> Bool {
        guard let pane, copy(pane, key: key, area: area, into: &buffer) else { return false }
        next = pane
        // Moved, not shared: a shared collection would be copied when the next frame empties it.
        swap(&nextRows, &rows)
        return true
    }

    /// Copies `pane` into `area` of `buffer` from the frame on screen when it was drawn there in
    /// the same area from inputs equal to `key` (in place it is there already); false when not.
    private func copy<Key>(_ pane: Pane<Key>, key: Key, area: Rect, into buffer: inout CellBuffer) -> Bool {
        guard pane.area == area, pane.key == key,
            inPlace || onScreen.width == buffer.width && onScreen.height == buffer.height
        else { return false }
        let clip = area.intersection(buffer.bounds)
        let whole = clip.x == 0 && clip.width == buffer.width
        for row in clip.y..<clip.maxY {
            if !inPlace { buffer.copyCells(row: row, x: clip.x, count: clip.width, from: onScreen) }
            if whole && row < copied.count { copied[row] = true }
        }
        return true
    }

    /// Starts the table for `context`; a new context drops every cached table row.
    func useTable(_ context: TableContext) {
        if tableContext != context {
            tableContext = context
            tableRows.removeAll(keepingCapacity: true)
        }
    }

    /// Draws the cached line of `row`'s operation on the canvas's row `y` if it was rendered
    /// from a row equal to `row`; drawing in place, it is left as it is when the frame on screen
    /// shows it there already, else that row is blanked first (`Canvas.blank(rows:keepingIn:)`).
    func drawTableRow(_ row: TableView.Row, y: Int, into canvas: inout Canvas) -> Bool {
        // Moved out, not copied: a row is drawn once a frame, and one not drawn from here is
        // drawn and stored again.
        guard let kept = tableRows.removeValue(forKey: row.id), kept.key == row else { return false }
        if !isOnScreen(kept.serial, y, canvas) {
            canvas.blank(rows: y..<(y + 1), keepingIn: self)
            guard canvas.replace(row: y, with: kept.cells) else { return false }
        }
        place(kept.serial, y, canvas)
        nextTableRows[row.id] = kept
        return true
    }

    /// Drawing in place: whether the frame on screen shows the row `serial` on the canvas's row
    /// `y` (placed there in it, the canvas spanning the screen's width), so it needs no drawing.
    private func isOnScreen(_ serial: Int, _ y: Int, _ canvas: Canvas) -> Bool {
        guard inPlace, canvas.spansBufferWidth else { return false }
        let row = canvas.bufferRow(y)
        return row >= 0 && row < placedBefore.count && placedBefore[row] == serial
    }

    /// Remembers the canvas's row `y` as the line rendered from `row`.
    func storeTableRow(_ row: TableView.Row, y: Int, from canvas: Canvas) {
        nextTableRows[row.id] = placedRow(canvas.cells(row: y), key: row, y: y, canvas)
    }

    /// The table's columns as last laid out from `key`, if they were.
    func tableColumns(_ key: TableHeadingKey) -> [(column: TableColumn, width: Int)]? {
        guard let heading = tableHeading, heading.row.key == key else { return nil }
        return heading.columns
    }

    /// Draws the table's column-header line on the canvas's row `y` if it was last drawn from
    /// `key` (left as it is when the frame on screen shows it there, drawing in place).
    func drawTableHeading(key: TableHeadingKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = tableHeading?.row, row.key == key else { return false }
        if isOnScreen(row.serial, y, canvas) {
            place(row.serial, y, canvas)
            return true
        }
        canvas.blank(rows: y..<(y + 1), keepingIn: self)
        return draw(row, key: key, y: y, into: &canvas)
    }

    /// Remembers the canvas's row `y` as the table's column-header line drawn from `key` in
    /// `columns`.
    func storeTableHeading(
        key: TableHeadingKey, columns: [(column: TableColumn, width: Int)], y: Int, from canvas: Canvas
    ) {
        let cells = canvas.cells(row: y)
        guard !cells.isEmpty else { return }
        tableHeading = (placedRow(cells, key: key, y: y, canvas), columns)
    }

    /// Draws the cached log row rendered from `key` on the canvas's row `y`, if any.
    func drawLogRow(key: LogKey, y: Int, into canvas: inout Canvas) -> Bool {
        // A local reference to the rows: one exclusive-access check, not one a comparison.
        // Read by index: only the row found is copied.
        let rows = logRows
        for index in rows.indices where rows[index].key.entry.time == key.entry.time && rows[index].key == key {
            guard draw(rows[index], key: key, y: y, into: &canvas) else { return false }
            nextLogRows.append(rows[index])
            return true
        }
        return false
    }

    /// Remembers the canvas's row `y` as the log row rendered from `key`.
    func storeLogRow(key: LogKey, y: Int, from canvas: Canvas) {
        nextLogRows.append(placedRow(canvas.cells(row: y), key: key, y: y, canvas))
    }

    /// Draws the header's title line on the canvas's row `y` if it was last drawn from `key`.
    func drawHeaderLine(_ key: HeaderView.TitleKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = headerTitle else { return false }
        return draw(row, key: key, y: y, into: &canvas)
    }

    /// Draws the header's counts line on the canvas's row `y` if it was last drawn from `key`.
    func drawHeaderLine(_ key: HeaderView.CountsKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = headerCounts else { return false }
        return draw(row, key: key, y: y, into: &canvas)
    }

    /// Draws the header's progress line on the canvas's row `y` if it was last drawn from `key`.
    func drawHeaderLine(_ key: HeaderView.ProgressKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = headerProgress else { return false }
        return draw(row, key: key, y: y, into: &canvas)
    }

    /// Remembers the canvas's row `y` as the header's title line drawn from `key`.
    func storeHeaderLine(_ key: HeaderView.TitleKey, y: Int, from canvas: Canvas) {
        if let row = keptRow(key: key, y: y, from: canvas) { headerTitle = row }
    }

    /// Remembers the canvas's row `y` as the header's counts line drawn from `key`.
    func storeHeaderLine(_ key: HeaderView.CountsKey, y: Int, from canvas: Canvas) {
        if let row = keptRow(key: key, y: y, from: canvas) { headerCounts = row }
    }

    /// Remembers the canvas's row `y` as the header's progress line drawn from `key`.
    func storeHeaderLine(_ key: HeaderView.ProgressKey, y: Int, from canvas: Canvas) {
        if let row = keptRow(key: key, y: y, from: canvas) { headerProgress = row }
    }

    /// The canvas's row `y`, drawn from `key`, as a row to keep (recorded as there); nil when
    /// the row is outside the canvas.
    private func keptRow<Key>(key: Key, y: Int, from canvas: Canvas) -> Row<Key>? {
        let cells = canvas.cells(row: y)
        guard !cells.isEmpty else { return nil }
        return placedRow(cells, key: key, y: y, canvas)
    }

    /// Draws the footer's left part on the canvas's row `y` if it was last drawn from `key`.
    func drawFooterLeft(key: FooterView.LeftKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = footerLeft, row.key == key else { return false }
        return canvas.replace(row: y, with: row.cells)
    }

    /// Remembers the canvas's row `y` as the footer's left part drawn from `key` (before the
    /// position is drawn over it).
    func storeFooterLeft(key: FooterView.LeftKey, y: Int, from canvas: Canvas) {
        let cells = canvas.cells(row: y)
        footerLeft = cells.isEmpty ? nil : Row(key: key, cells: cells, serial: nextSerial())
    }

    /// The footer's hints for `key`: those made last when they were made for an equal key (the
    /// same array, which the footer's key then compares at once), else made now and kept.
    func footerHints(_ key: FooterView.HintsKey) -> [FooterView.Hint] {
        if let footerHints, footerHints.key == key { return footerHints.hints }
        let hints = FooterView.hints(for: key)
        footerHints = (key, hints)
        return hints
    }

    /// Records that the canvas's row `y` shows the footer's left part stored last with
    /// `position` over it: the same row as the frame before when both are the same.
    func placeFooter(position: String, y: Int, canvas: Canvas) {
        guard let left = footerLeft?.serial else { return }
        let shown: (left: Int, position: String, serial: Int)
        if let last = footerShown, last.left == left, last.position == position {
            shown = last
        } else {
            shown = (left, position, nextSerial())
        }
        footerShown = shown
        place(shown.serial, y, canvas)
    }

    /// Records that the canvas's row `y` shows the row `serial`, when that row is its screen row.
    /// Draws the kept `row` on the canvas's row `y` if it was rendered from `key`, and records
    /// that it is there; false (nothing drawn) when it must be rendered.
    private func draw<Key: Equatable>(_ row: Row<Key>, key: Key, y: Int, into canvas: inout Canvas) -> Bool {
        guard row.key == key, canvas.replace(row: y, with: row.cells) else { return false }
        place(row.serial, y, canvas)
        return true
    }

    /// `cells`, the canvas's row `y` just rendered from `key`, as a row to keep (a new serial),
    /// recorded as there.
    private func placedRow<Key>(_ cells: [Cell], key: Key, y: Int, _ canvas: Canvas) -> Row<Key> {
        let row = Row(key: key, cells: cells, serial: nextSerial())
        place(row.serial, y, canvas)
        return row
    }

    private func place(_ serial: Int, _ y: Int, _ canvas: Canvas) {
        guard canvas.spansBufferWidth else { return }
        let row = canvas.bufferRow(y)
        if row >= 0 && row < placed.count { placed[row] = serial }
    }

    private func nextSerial() -> Int {
        serial &+= 1
        if serial == 0 { serial = 1 }
        return serial
    }
}
