import OpsMonitor

/// The dependency view: operations as a tree, roots first, each under the dependency it was
/// listed with, its other dependencies noted as "(also after #x)".
///
/// A widget: `init(_:rows:)` takes from the state the rows the tree shows (each operation with
/// its place in the tree) and `render(into:area:)` draws a title line and them inside `area`.
struct TreeView {
    /// One listed operation and its place in the tree.
    struct Row: Equatable {
        var operation: OperationSnapshot
        /// Its ancestry, outermost first (see `RowOrder.guides`).
        var guides: [Bool]
        /// Its depth (0 for a root), however deep.
        var depth: Int
        /// Listed only because something under it matches the filter (drawn dim).
        var isContext: Bool
        /// Why it isn't running, or how it ended.
        var why: WaitReason
        /// Its dependencies other than the parent it is listed under.
        var alsoAfter: [Int]
        /// Whether the row shows in reverse video.
        var isSelected: Bool
    }

    /// Unicode or ASCII drawing.
    var glyphs: GlyphSet = .unicode
    /// The siblings' order, named in the title when it isn't the id order.
    var sort = SortOrder.id
    /// The filter text; matches are highlighted, and the title says what it keeps.
    var filter = ""
    /// The rows shown, top to bottom.
    var rows: [Row] = []

    /// A tree of `rows`.
    init(glyphs: GlyphSet = .unicode, sort: SortOrder = .id, filter: String = "", rows: [Row] = []) {
        self.glyphs = glyphs
        self.sort = sort
        self.filter = filter
        self.rows = rows
    }

    /// The tree for `state` showing at most `count` rows from its scroll offset.
    init(_ state: borrowing DashboardState, rows count: Int) {
        glyphs = state.glyphs
        sort = state.sort
        filter = state.filter
        let order = state.rows
        let snapshot = state.snapshot
        let concurrency = state.effectiveConcurrency
        let selectedID = state.selectedID
        for line in 0..<max(0, count) {
            let index = state.scrollOffset + line
            guard index < order.ids.count, let operation = snapshot.operation(id: order.ids[index]) else { break }
            let depth = index < order.depths.count ? order.depths[index] : order.guides[index].count - 1
            rows.append(
                Row(
                    operation: operation, guides: order.guides[index], depth: depth,
                    isContext: index < order.isContext.count && order.isContext[index],
                    why: WaitReason(operation, in: snapshot, concurrency: concurrency),
                    alsoAfter: order.alsoAfter[index], isSelected: operation.id == selectedID))
        }
    }

    /// Draws the tree inside `area`: a title line, then the rows.
    func render(into buffer: inout CellBuffer, area: Rect) {
        buffer.draw(in: area) { render(into: &$0) }
    }

    private func render(into canvas: inout Canvas) {
        let width = canvas.width
        var title = [
            Span("DEPENDENCIES", Theme.columnHeader), Span(" roots first, each under what it waits on", Theme.label),
        ]
        if sort != .id {
            title.append(Span("; siblings by \(sort.rawValue)", Theme.label))
        }
        if !filter.isEmpty {
            title.append(Span("; only ", Theme.label))
            title.append(Span("\"\(filter)\"", CellStyle(foreground: .yellow, bold: true)))
            title.append(Span(" and what it is under (dim)", Theme.label))
        }
        canvas.write(title, x: 0, y: 0, maxWidth: width)
        if rows.isEmpty {
            let message = filter.isEmpty ? "no operations" : "no operations match \"\(filter)\""
            canvas.write(message, x: 1, y: 1, style: Theme.label)
            return
        }
        // Indentation takes at most a third of the width, so deep rows keep their text.
        let maxIndent = max(6, width / 3)
        let needle = filter.lowercased()
        for (line, row) in rows.prefix(max(0, canvas.height - 1)).enumerated() {
            let y = 1 + line
            let operation = row.operation
            let context = row.isContext
            let prefix = DependencyTree.prefix(row.guides, depth: row.depth, glyphs: glyphs, maxColumns: maxIndent)
            let plain = context ? Theme.label : CellStyle.plain
            var spans = [Span(prefix, Theme.border)]
            spans += highlighted("#\(operation.id)", needle, Theme.label) + [Span(" ")]
            spans.append(Span(String(glyphs.kind(operation.kind)) + " ", plain))
            spans += highlighted(operation.name, needle, plain) + [Span(" ")]
            spans += highlighted(
                operation.displayState.word, needle, context ? Theme.label : operation.displayState.style)
            if operation.totalUnits > 0 && !operation.hasFinished {
                spans.append(Span(" " + Format.percent(operation.fraction), plain))
            }
            let (why, whyStyle) = row.why.cell
            if !why.isEmpty { spans.append(Span(" " + why, context ? Theme.label : whyStyle)) }
            if !row.alsoAfter.isEmpty {
                let list = row.alsoAfter.map { "#\($0)" }.joined(separator: ", ")
                spans.append(Span(" (also after \(list))", Theme.label))
            }
            canvas.write(spans, x: 0, y: y, maxWidth: width)
            if row.isSelected { canvas.reverse(y: y, x: 0, width: width) }
        }
    }
}
