import OpsKit
import OpsMonitor

/// The operations table: a column-header line, then one line per visible row.
///
/// A widget: `init(_:rows:)` takes from the state the rows the table shows (each operation
/// with what its line needs) and `render(into:area:cache:)` draws them inside `area`.
struct TableView {
    /// One listed operation as its line shows it: the operation's fields its cells read (not the
    /// whole `OperationSnapshot`, whose message, history and retry log no cell shows, and whose
    /// copy out of the snapshot for each row costs more than drawing the row) and the row's own
    /// values. Also what a kept row is kept by (`RenderCache`): equal rows draw equal lines.
    struct Row: Equatable, ProgressAmounts {
        var id: Int
        /// The name as the operation stores it (`OperationSnapshot.storedName`, `nameAddsID`).
        var storedName: String?
        var nameAddsID: Bool
        var kind: OperationKind
        var unit: ProgressUnit
        var lifecycle: Lifecycle
        var outcome: Outcome?
        /// Whether a retry is due (the STATE column shows "retrying").
        var retryDue: Bool
        var completedUnits: Int64
        var totalUnits: Int64
        var unitsPerSecond: Double
        var retries: Int
        var dependencies: [Int]
        /// The WHY column.
        var why: WaitReason
        /// The TIME column: whole seconds running, or that it ran; nil before it starts.
        var elapsedSeconds: Int64?
        /// The WAIT column, in whole seconds: from added to started, or until now while it has
        /// not started (until it finished, for one cancelled before starting).
        var waitSeconds: Int64 = 0
        /// Whether the row shows in reverse video.
        var isSelected: Bool

        /// The row of `operation`, read where it is stored (nothing of it is copied but the
        /// fields the cells read).
        init(
            _ operation: borrowing OperationSnapshot, why: WaitReason, elapsed: Duration?, wait: Duration = .zero,
            isSelected: Bool
        ) {
            id = operation.id
            storedName = operation.storedName
            nameAddsID = operation.nameAddsID
            kind = operation.kind
            unit = operation.unit
            lifecycle = operation.lifecycle
            outcome = operation.outcome
            retryDue = operation.isRetryDue
            completedUnits = operation.completedUnits
            totalUnits = operation.totalUnits
            unitsPerSecond = operation.unitsPerSecond
            retries = operation.retries
            dependencies = operation.dependencies
            self.why = why
            elapsedSeconds = elapsed?.wholeSeconds
            waitSeconds = wait.wholeSeconds
            self.isSelected = isSelected
        }

        /// The row of `operation` as `snapshot`'s table shows it under the concurrency limit
        /// `concurrency`, selected when its id is `selectedID`.
        init(
            _ operation: borrowing OperationSnapshot, in snapshot: borrowing QueueSnapshot, concurrency: Int,
            selectedID: Int?
        ) {
            let now = snapshot.time
            var elapsed: Duration?
            if let started = operation.startedAt { elapsed = (operation.finishedAt ?? now) - started }
            let wait = (operation.startedAt ?? operation.finishedAt ?? now) - operation.addedAt
            self.init(
                operation, why: WaitReason(operation, in: snapshot, concurrency: concurrency), elapsed: elapsed,
                wait: max(.zero, wait), isSelected: operation.id == selectedID)
        }

        /// The NAME column (`OperationSnapshot.name`).
        var name: String {
            OperationSnapshot.resolvedName(storedName, addingID: nameAddsID ? id : nil)
                ?? OperationSnapshot.defaultName(id: id)
        }

        /// The STATE column (`OperationSnapshot.displayState`).
        var displayState: DisplayState {
            lifecycle == .executing && retryDue ? .retrying : DisplayState(lifecycle, outcome)
        }

        /// The bar's fill (`OperationSnapshot.fraction`).
        var fraction: Double {
            OperationSnapshot.fraction(completed: completedUnits, total: totalUnits, outcome: outcome)
        }
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
    /// Whether a printable-ASCII cell that fits is written straight into the cells, padded;
    /// tests turn it off to draw the same cell through `Format.fit`'s padded text.
    var writesCellsDirectly = true

    /// A table of `rows`.
    init(glyphs: GlyphSet = .unicode, maxID: Int = 0, filter: String = "", rows: [Row] = []) {
        self.glyphs = glyphs
        self.maxID = maxID
        self.filter = filter
        self.rows = rows
    }

    /// The table for `state` showing at most `count` rows from its scroll offset.
    init(_ state: borrowing DashboardState, rows count: Int) {
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
            guard let position = order.position(at: first + line, in: snapshot) else { break }
            // Read in place: the operation is not copied out of the snapshot.
            rows.append(
                Row(snapshot.operations[position], in: snapshot, concurrency: concurrency, selectedID: selectedID))
        }
    }

    /// Draws the table inside `area`; with a `cache`, rows drawn before from the same inputs
    /// are copied instead of drawn again, and drawing in place (`RenderCache.beginFrame(inPlace:)`)
    /// a row the frame on screen shows already is left as it is: only the rows drawn are blanked
    /// first.
    func render(into buffer: inout CellBuffer, area: Rect, cache: RenderCache? = nil) {
        buffer.draw(in: area) { render(into: &$0, cache: cache) }
    }

    private func render(into canvas: inout Canvas, cache: RenderCache?) {
        let heading = RenderCache.TableHeadingKey(width: canvas.width, idWidth: TableColumn.idWidth(maxID: maxID))
        let columns = cache?.tableColumns(heading) ?? TableColumn.layout(width: canvas.width, maxID: maxID)
        if cache?.drawTableHeading(key: heading, y: 0, into: &canvas) != true {
            if let cache { canvas.blank(rows: 0..<1, keepingIn: cache) }
            var x = 0
            for (column, width) in columns {
                let title = Format.fit(column.title, width, right: column.alignsRight)
                canvas.write(title, x: x, y: 0, style: Theme.columnHeader)
                x += width + 1
            }
            cache?.storeTableHeading(key: heading, columns: columns, y: 0, from: canvas)
        }
        let drawn = min(rows.count, max(0, canvas.height - 1))
        // The rows under the last one drawn show nothing.
        if let cache { canvas.blank(rows: (1 + drawn)..<max(1 + drawn, canvas.height), keepingIn: cache) }
        if rows.isEmpty {
            let message = filter.isEmpty ? "no operations" : "no operations match \"\(filter)\""
            canvas.write(message, x: 1, y: 1, style: Theme.label)
            return
        }
        cache?.useTable(
            RenderCache.TableContext(
                width: canvas.width, idWidth: columns.first?.width ?? 0, glyphs: glyphs, needle: needle,
                searchNeedle: searchNeedle))
        // By index: each row read where the array stores it, not copied.
        for line in 0..<drawn {
            let y = 1 + line
            if let cache {
                if cache.drawTableRow(rows[line], y: y, into: &canvas) { continue }
                canvas.blank(rows: y..<(y + 1), keepingIn: cache)
            }
            renderRow(rows[line], columns: columns, into: &canvas, y: y)
            if rows[line].isSelected { canvas.reverse(y: y, x: 0, width: canvas.width) }
            cache?.storeTableRow(rows[line], y: y, from: canvas)
        }
    }

    /// Draws one operation's cells.
    private func renderRow(
        _ row: Row, columns: [(column: TableColumn, width: Int)], into canvas: inout Canvas, y: Int
    ) {
        var x = 0
        let needle = needle
        let searchNeedle = searchNeedle
        for (column, width) in columns {
            defer { x += width + 1 }
            if column == .progress {
                ProgressBar(fraction: row.fraction, style: Theme.bar(row.displayState))
                    .render(into: &canvas, x: x, y: y, width: width, glyphs: glyphs)
                continue
            }
            let (text, style) = cell(column, row)
            // The filter's matches in the columns it reads, else the search's in any.
            let filtered = !needle.isEmpty && (column == .id || column == .name || column == .state)
            let shown = filtered ? needle : searchNeedle
            if writesCellsDirectly, shown.isEmpty, let columns = printableASCIIColumns(text), columns <= width {
                // Most cells: printable ASCII that fits, padded where it stands, in its style
                // (what writing `Format.fit`'s padded text draws, with no string built).
                let right = column != .name && column.alignsRight
                canvas.writeScalars(x: x, y: y) { line in
                    if right { for _ in columns..<width { line.put(" ", style: style) } }
                    line.put(printableASCII: text, style: style)
                    if !right { for _ in columns..<width { line.put(" ", style: style) } }
                }
                continue
            }
            let fitted =
                column == .name
                ? Format.fitMiddle(text, width, ellipsis: glyphs.ellipsis)
                : Format.fit(text, width, right: column.alignsRight, ellipsis: glyphs.ellipsis)
            if shown.isEmpty {
                canvas.write(fitted, x: x, y: y, style: style)
            } else {
                canvas.write(highlighted(fitted, shown, style), x: x, y: y, maxWidth: width)
            }
        }
    }

    /// The filter text as matched: lowercased.
    private var needle: String { filter.lowercased() }

    /// The search text as matched: lowercased.
    private var searchNeedle: String { search.lowercased() }

    /// The text and style of one cell.
    private func cell(_ column: TableColumn, _ operation: Row) -> (String, CellStyle) {
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
            guard executing else { return ("", .plain) }
            let eta = Format.eta(
                completed: operation.completedUnits, of: operation.totalUnits, bytesPerSecond: operation.unitsPerSecond)
            return (eta, .plain)
        case .wait: return (Format.duration(.seconds(operation.waitSeconds)), .plain)
        case .elapsed: return (operation.elapsedSeconds.map { Format.duration(.seconds($0)) } ?? "", .plain)
        case .retries: return (operation.retries > 0 ? "\(operation.retries)" : "", Theme.warning)
        case .after:
            return (operation.dependencies.map { "#\($0)" }.joined(separator: ","), Theme.label)
        case .why: return operation.why.cell
        }
    }
}
