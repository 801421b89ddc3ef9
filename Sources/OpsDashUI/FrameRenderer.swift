import OpsMonitor

/// Turns successive dashboard states into what the terminal must draw, doing only the work a
/// change needs: table and log rows whose inputs didn't change are copied from the last frame
/// they were drawn in instead of being formatted again, rows that are exactly what the screen
/// already shows are not compared again, and the two frame buffers are reused.
///
/// Not thread-safe: use it from the run loop's thread.
public final class FrameRenderer {
    /// The frame the terminal shows (after the last `frame(for:)`).
    public private(set) var front = CellBuffer(width: 0, height: 0)
    private var back = CellBuffer(width: 0, height: 0)
    private let custom: ((DashboardState) -> CellBuffer)?
    private let cache = RenderCache()

    /// A renderer with nothing on screen yet, drawing with `render` (the dashboard's own
    /// renderer, with row reuse, when nil; tests pass their own).
    public init(render: ((DashboardState) -> CellBuffer)? = nil) {
        custom = render
    }

    /// The runs that turn the screen into `state`'s frame; empty when nothing changed.
    public func frame(for state: DashboardState) -> [CellRun] {
        if let custom {
            let next = custom(state)
            let runs = diff(from: front, to: next)
            front = next
            return runs
        }
        swap(&front, &back)  // `back` is now the frame on screen
        cache.beginFrame(height: state.height)
        render(state, into: &front, cache: cache)
        let full = back.width != front.width || back.height != front.height
        var runs: [CellRun] = []
        for y in 0..<front.height where full || !cache.isUnchanged(row: y) {
            appendRuns(row: y, from: back, to: front, full: full, into: &runs)
        }
        cache.endFrame()
        return runs
    }

    /// Forgets what is on screen, so the next frame repaints every cell (Ctrl-L, a terminal
    /// that was cleared behind the dashboard's back).
    public func invalidate() {
        front = CellBuffer(width: 0, height: 0)
        back = CellBuffer(width: 0, height: 0)
        cache.clear()
    }
}

/// Rows rendered in earlier frames, by what they were rendered from, and which screen row each
/// frame's reused rows went to.
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
    }

    /// Everything a table row shows is computed from these.
    struct TableKey: Equatable {
        var operation: OperationSnapshot
        var why: WaitReason
        var elapsedSeconds: Int64?
        var isSelected: Bool
    }

    /// Everything a log row shows is computed from these.
    struct LogKey: Equatable {
        var entry: LogEntry
        var repeats: Int
        var width: Int
        var glyphs: GlyphSet
    }

    private var tableContext: TableContext?
    private var tableRows: [Int: Row<TableKey>] = [:]
    private var nextTableRows: [Int: Row<TableKey>] = [:]
    private var logRows: [Row<LogKey>] = []
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

    /// Draws the cached row of operation `id` on row `y` if it was rendered from `key`.
    func drawTableRow(id: Int, key: TableKey, y: Int, into buffer: inout CellBuffer) -> Bool {
        guard let row = tableRows[id], row.key == key, buffer.replaceRow(y, with: row.cells) else {
            return false
        }
        nextTableRows[id] = row
        place(row.serial, y)
        return true
    }

    /// Remembers row `y` of `buffer` as operation `id`'s row rendered from `key`.
    func storeTableRow(id: Int, key: TableKey, y: Int, from buffer: CellBuffer) {
        let row = Row(key: key, cells: buffer.row(y), serial: nextSerial())
        nextTableRows[id] = row
        place(row.serial, y)
    }

    /// Draws the cached log row rendered from `key` on row `y`, if any.
    func drawLogRow(key: LogKey, y: Int, into buffer: inout CellBuffer) -> Bool {
        guard let row = logRows.first(where: { $0.key == key }), buffer.replaceRow(y, with: row.cells)
        else { return false }
        nextLogRows.append(row)
        place(row.serial, y)
        return true
    }

    /// Remembers row `y` of `buffer` as the log row rendered from `key`.
    func storeLogRow(key: LogKey, y: Int, from buffer: CellBuffer) {
        let row = Row(key: key, cells: buffer.row(y), serial: nextSerial())
        nextLogRows.append(row)
        place(row.serial, y)
    }

    private func place(_ serial: Int, _ y: Int) {
        if y >= 0 && y < placed.count { placed[y] = serial }
    }

    private func nextSerial() -> Int {
        serial &+= 1
        if serial == 0 { serial = 1 }
        return serial
    }
}
