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

    private var tableContext: TableContext?
    private var tableRows: [Int: Row<TableKey>] = [:]
    private var nextTableRows: [Int: Row<TableKey>] = [:]
    private var logRows: [Row<LogKey>] = []
    /// Lines drawn from a key of their own (the header's), by slot.
    private var lines: [Int: Row<any Equatable>] = [:]
    private var nextLogRows: [Row<LogKey>] = []
    private var serial = 0
    /// Per screen row, the serial of the cached row placed there this frame (0: none).
    private var placed: [Int] = []
    /// The same for the frame on screen.
    private var placedBefore: [Int] = []

    /// Starts a frame `height` rows high.
    func beginFrame(height: Int) {
        if placed.count != height {
            placed = Array(repeating: 0, count: height)
            placedBefore = Array(repeating: 0, count: height)
        } else {
            for index in placed.indices { placed[index] = 0 }
        }
        nextTableRows.removeAll(keepingCapacity: true)
        nextLogRows.removeAll(keepingCapacity: true)
    }

    /// Ends the frame: rows not drawn in it are forgotten.
    func endFrame() {
        swap(&tableRows, &nextTableRows)
        swap(&logRows, &nextLogRows)
        swap(&placed, &placedBefore)
    }

    /// Forgets everything (the screen is repainted from scratch).
    func clear() {
        tableContext = nil
        tableRows.removeAll()
        logRows.removeAll()
        lines.removeAll()
        placed = []
        placedBefore = []
    }

    /// Whether screen row `y` holds the same rendered row as in the frame on screen.
    func isUnchanged(row y: Int) -> Bool {
        y < placed.count && placed[y] != 0 && placed[y] == placedBefore[y]
    }

    /// Forgets where rows went this frame (an overlay is drawn over them).
    func forgetPlacement() {
        for index in placed.indices { placed[index] = 0 }
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
