import OpsMonitor

/// The operations table: a column-header line, then one line per visible row.
///
/// A widget: `init(_:rows:)` takes from the state the rows the table shows (each operation
/// with what its line needs) and `render(into:area:cache:)` draws them inside `area`.
struct TableView {
    /// One listed operation and what its line shows besides the operation itself.
    struct Row: Equatable {
        var operation: OperationSnapshot
        /// The WHY column.
        var why: WaitReason
        /// The TIME column: time running, or how long it ran; nil before it starts.
        var elapsed: Duration?
        /// The WAIT column: from added to started, or until now while it has not started (until
        /// it finished, for one cancelled before starting).
        var wait: Duration = .zero
        /// Whether the row shows in reverse video.
        var isSelected: Bool

        /// Whole seconds the TIME column shows, nil when it shows nothing.
        var elapsedSeconds: Int64? { elapsed?.components.seconds }
        /// Whole seconds the WAIT column shows.
        var waitSeconds: Int64 { wait.components.seconds }
    }

    /// Unicode or ASCII drawing.
    var glyphs: GlyphSet = .unicode
    /// The highest operation id in the queue: the ID column is as wide as it.
    var maxID = 0
    /// The filter text; matches are highlighted, and an empty table says it matched nothing.
    var filter = ""
    /// The search text (`/`); its matches are highlighted in every text cell.
    var search = ""
    /// The rows shown, top to bottom.
    var rows: [Row] = []

    /// A table of `rows`.
    init(glyphs: GlyphSet = .unicode, maxID: Int = 0, filter: String = "", rows: [Row] = []) {
        self.glyphs = glyphs
        self.maxID = maxID
        self.filter = filter
        self.rows = rows
    }

    /// The table for `state` showing at most `count` rows from its scroll offset.
    init(_ state: DashboardState, rows count: Int) {
        let snapshot = state.snapshot
        glyphs = state.glyphs
        maxID = snapshot.operations.last?.id ?? 0
        filter = state.filter
        search = state.search
        let order = state.rows
        let concurrency = state.effectiveConcurrency
        let selectedID = state.selectedID
        let first = state.scrollOffset
        rows.reserveCapacity(max(0, count))
        for line in 0..<max(0, count) {
            guard let operation = order.operation(at: first + line, in: snapshot) else { break }
            let elapsed = operation.startedAt.map { (operation.finishedAt ?? snapshot.time) - $0 }
            let wait = (operation.startedAt ?? operation.finishedAt ?? snapshot.time) - operation.addedAt
            rows.append(
                Row(
                    operation: operation, why: WaitReason(operation, in: snapshot, concurrency: concurrency),
                    elapsed: elapsed, wait: max(.zero, wait), isSelected: operation.id == selectedID))
        }
    }

    /// Draws the table inside `area`; with a `cache`, rows drawn before from the same inputs
    /// are copied instead of drawn again.
    func render(into buffer: inout CellBuffer, area: Rect, cache: RenderCache? = nil) {
        buffer.draw(in: area) { render(into: &$0, cache: cache) }
    }

    private func render(into canvas: inout Canvas, cache: RenderCache?) {
        let heading = RenderCache.TableHeadingKey(width: canvas.width, idWidth: TableColumn.idWidth(maxID: maxID))
        let columns = cache?.tableColumns(heading) ?? TableColumn.layout(width: canvas.width, maxID: maxID)
        if cache?.drawTableHeading(key: heading, y: 0, into: &canvas) != true {
            var x = 0
            for (column, width) in columns {
                let title = Format.fit(column.title, width, right: column.alignsRight)
                canvas.write(title, x: x, y: 0, style: Theme.columnHeader)
                x += width + 1
            }
            cache?.storeTableHeading(key: heading, columns: columns, y: 0, from: canvas)
        }
        if rows.isEmpty {
            let message = filter.isEmpty ? "no operations" : "no operations match \"\(filter)\""
            canvas.write(message, x: 1, y: 1, style: Theme.label)
            return
        }
        cache?.useTable(
            RenderCache.TableContext(
                width: canvas.width, idWidth: columns.first?.width ?? 0, glyphs: glyphs, needle: needle,
                searchNeedle: searchNeedle))
        for (line, row) in rows.prefix(max(0, canvas.height - 1)).enumerated() {
            let y = 1 + line
            var key: RenderCache.TableKey?
            if let cache {
                let rowKey = RenderCache.TableKey(row)
                if cache.drawTableRow(id: row.operation.id, key: rowKey, y: y, into: &canvas) { continue }
                key = rowKey
            }
            renderRow(row, columns: columns, into: &canvas, y: y)
            if row.isSelected { canvas.reverse(y: y, x: 0, width: canvas.width) }
            if let cache, let key { cache.storeTableRow(id: row.operation.id, key: key, y: y, from: canvas) }
        }
    }

    /// Draws one operation's cells.
    private func renderRow(
        _ row: Row, columns: [(column: TableColumn, width: Int)], into canvas: inout Canvas, y: Int
    ) {
        let operation = row.operation
        var x = 0
        for (column, width) in columns {
            if column == .progress {
                ProgressBar(fraction: operation.fraction, style: Theme.bar(operation.displayState))
                    .render(into: &canvas, x: x, y: y, width: width, glyphs: glyphs)
            } else {
                let (text, style) = cell(column, row)
                let fitted =
                    column == .name
                    ? Format.fitMiddle(text, width, ellipsis: glyphs.ellipsis)
                    : Format.fit(text, width, right: column.alignsRight, ellipsis: glyphs.ellipsis)
                // The filter's matches in the columns it reads, else the search's in any.
                let filtered = !needle.isEmpty && (column == .id || column == .name || column == .state)
                let shown = filtered ? needle : searchNeedle
                if shown.isEmpty {
                    canvas.write(fitted, x: x, y: y, style: style)
                } else {
                    canvas.write(highlighted(fitted, shown, style), x: x, y: y, maxWidth: width)
                }
            }
            x += width + 1
        }
    }

    /// The filter text as matched: lowercased.
    private var needle: String { filter.lowercased() }

    /// The search text as matched: lowercased.
    private var searchNeedle: String { search.lowercased() }

    /// The text and style of one cell.
    private func cell(_ column: TableColumn, _ row: Row) -> (String, CellStyle) {
        let operation = row.operation
        let executing = operation.lifecycle == .executing
        switch column {
        case .id: return ("#\(operation.id)", Theme.label)
        case .kind: return (String(glyphs.kind(operation.kind)), .plain)
        case .name: return (operation.name, .plain)
        case .state:
            let state = operation.displayState
            return (state.word, state.style)
        case .progress: return ("", .plain)
        case .percent:
            let known = operation.totalUnits > 0 || operation.outcome == .succeeded
            return (known ? Format.percent(operation.fraction) : "", .plain)
        case .bytes: return (operation.amountText(fitting: TableColumn.bytes.width), .plain)
        case .rate: return (executing ? operation.rateText : "", CellStyle(foreground: .cyan))
        case .eta:
            let eta = Format.eta(
                remaining: operation.totalUnits - operation.completedUnits,
                bytesPerSecond: operation.unitsPerSecond)
            return (executing ? eta : "", .plain)
        case .wait: return (Format.duration(row.wait), .plain)
        case .elapsed: return (row.elapsed.map(Format.duration) ?? "", .plain)
        case .retries: return (operation.retries > 0 ? "\(operation.retries)" : "", Theme.warning)
        case .after:
            return (operation.dependencies.map { "#\($0)" }.joined(separator: ","), Theme.label)
        case .why: return row.why.cell
        }
    }
}
