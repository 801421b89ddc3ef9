import OpsMonitor

/// Rows rendered in earlier frames, by what they were rendered from, and which screen row each
/// frame's reused rows went to.
///
/// A row is the cells of one line of a widget's area; it stands for its whole screen row (and
/// lets the renderer skip comparing that row) only when the area spans the screen's width.
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

    /// Everything a table row shows is computed from these.
    struct TableKey: Equatable {
        var operation: OperationSnapshot
        var why: WaitReason
        var elapsedSeconds: Int64?
        var waitSeconds: Int64
        var isSelected: Bool
    }

    /// Everything a log row shows is computed from these.
    struct LogKey: Equatable {
        var entry: LogEntry
        var repeats: Int
        var width: Int
        var glyphs: GlyphSet
    }

    /// The first of the header's three line slots.
    static let headerSlot = 0
    /// The footer's line slot.
    static let footerSlot = 3

    private var tableContext: TableContext?
    private var tableRows: [Int: Row<TableKey>] = [:]
    private var nextTableRows: [Int: Row<TableKey>] = [:]
    private var logRows: [Row<LogKey>] = []
    /// Lines drawn from a key of their own (the header's), by slot.
    private var lines: [Int: Row<any Equatable>] = [:]
    /// The frame on screen while the next one is drawn: a pane drawn there from inputs equal
    /// to its inputs now is copied from it.
    private var onScreen = CellBuffer(width: 0, height: 0)
    /// Per pane slot, what it was drawn from and where: in the frame on screen, in this one.
    private var panes: [Int: Pane] = [:]
    private var nextPanes: [Int: Pane] = [:]
    /// Per screen row, whether this frame copied it whole from the frame on screen.
    private var copied: [Bool] = []

    /// A pane's inputs and area.
    private struct Pane {
        var key: any Equatable
        var area: Rect
    }

    /// The table's pane slot.
    static let tablePane = 0
    /// The event log's pane slot.
    static let logPane = 1
    private var nextLogRows: [Row<LogKey>] = []
    private var serial = 0
    /// Per screen row, the serial of the cached row placed there this frame (0: none).
    private var placed: [Int] = []
    /// The same for the frame on screen.
    private var placedBefore: [Int] = []

    /// Starts a frame `height` rows high, drawn over `onScreen`, the frame the terminal shows.
    func beginFrame(height: Int, onScreen: CellBuffer = CellBuffer(width: 0, height: 0)) {
        if placed.count != height {
            placed = Array(repeating: 0, count: height)
            placedBefore = Array(repeating: 0, count: height)
            copied = Array(repeating: false, count: height)
        } else {
            for index in placed.indices {
                placed[index] = 0
                copied[index] = false
            }
        }
        self.onScreen = onScreen
        nextTableRows.removeAll(keepingCapacity: true)
        nextLogRows.removeAll(keepingCapacity: true)
        nextPanes.removeAll(keepingCapacity: true)
    }

    /// Ends the frame: rows and panes not drawn in it are forgotten.
    func endFrame() {
        swap(&tableRows, &nextTableRows)
        swap(&logRows, &nextLogRows)
        swap(&placed, &placedBefore)
        swap(&panes, &nextPanes)
        // Not kept: the renderer draws the next frame into this buffer's storage.
        onScreen = CellBuffer(width: 0, height: 0)
    }

    /// Forgets everything (the screen is repainted from scratch).
    func clear() {
        tableContext = nil
        tableRows.removeAll()
        logRows.removeAll()
        lines.removeAll()
        panes.removeAll()
        nextPanes.removeAll()
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
        for index in placed.indices {
            placed[index] = 0
            copied[index] = false
        }
        nextPanes.removeAll(keepingCapacity: true)
    }

    /// Copies pane `slot` into `area` of `buffer` from the frame on screen, when it was drawn
    /// there in the same area from inputs equal to `key`; false when it must be drawn. The rows
    /// it keeps (the table's, the log's) are kept with it.
    func copyPane<Key: Equatable>(_ slot: Int, key: Key, area: Rect, into buffer: inout CellBuffer) -> Bool {
        guard let pane = panes[slot], pane.area == area, let drawn = pane.key as? Key, drawn == key,
            onScreen.width == buffer.width, onScreen.height == buffer.height
        else { return false }
        let clip = area.intersection(buffer.bounds)
        let whole = clip.x == 0 && clip.width == buffer.width
        for row in clip.y..<clip.maxY {
            buffer.copyCells(row: row, x: clip.x, count: clip.width, from: onScreen)
            if whole && row < copied.count { copied[row] = true }
        }
        nextPanes[slot] = pane
        if slot == Self.tablePane { nextTableRows = tableRows }
        if slot == Self.logPane { nextLogRows = logRows }
        return true
    }

    /// Records that pane `slot` was drawn in `area` from `key` this frame.
    func drewPane<Key: Equatable>(_ slot: Int, key: Key, area: Rect) {
        nextPanes[slot] = Pane(key: key, area: area)
    }

    /// Starts the table for `context`; a new context drops every cached table row.
    func useTable(_ context: TableContext) {
        if tableContext != context {
            tableContext = context
            tableRows.removeAll(keepingCapacity: true)
        }
    }

    /// Draws the cached row of operation `id` on the canvas's row `y` if it was rendered from
    /// `key`.
    func drawTableRow(id: Int, key: TableKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = tableRows[id], row.key == key, canvas.replace(row: y, with: row.cells) else {
            return false
        }
        nextTableRows[id] = row
        place(row.serial, y, canvas)
        return true
    }

    /// Remembers the canvas's row `y` as operation `id`'s row rendered from `key`.
    func storeTableRow(id: Int, key: TableKey, y: Int, from canvas: Canvas) {
        let row = Row(key: key, cells: canvas.cells(row: y), serial: nextSerial())
        nextTableRows[id] = row
        place(row.serial, y, canvas)
    }

    /// Draws the cached log row rendered from `key` on the canvas's row `y`, if any.
    func drawLogRow(key: LogKey, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = logRows.first(where: { $0.key == key }), canvas.replace(row: y, with: row.cells)
        else { return false }
        nextLogRows.append(row)
        place(row.serial, y, canvas)
        return true
    }

    /// Remembers the canvas's row `y` as the log row rendered from `key`.
    func storeLogRow(key: LogKey, y: Int, from canvas: Canvas) {
        let row = Row(key: key, cells: canvas.cells(row: y), serial: nextSerial())
        nextLogRows.append(row)
        place(row.serial, y, canvas)
    }

    /// Draws the line last stored in `slot` on the canvas's row `y` if it was drawn from `key`.
    func drawLine<Key: Equatable>(_ slot: Int, key: Key, y: Int, into canvas: inout Canvas) -> Bool {
        guard let row = lines[slot], let stored = row.key as? Key, stored == key,
            canvas.replace(row: y, with: row.cells)
        else { return false }
        place(row.serial, y, canvas)
        return true
    }

    /// Remembers the canvas's row `y` as the line of `slot` drawn from `key`.
    func storeLine<Key: Equatable>(_ slot: Int, key: Key, y: Int, from canvas: Canvas) {
        let cells = canvas.cells(row: y)
        guard !cells.isEmpty else { return }
        let row = Row<any Equatable>(key: key, cells: cells, serial: nextSerial())
        lines[slot] = row
        place(row.serial, y, canvas)
    }

    /// Records that the canvas's row `y` shows the row `serial`, when that row is its screen row.
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
