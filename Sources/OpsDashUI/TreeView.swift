import OpsMonitor

/// The dependency view: operations as a tree, roots first, each under the dependency it was
/// listed with, its other dependencies noted as "(also after #x)".
struct TreeView {
    let state: DashboardState

    /// Draws the tree into `band`: a title line, then visible rows from the scroll offset.
    func render(into buffer: inout CellBuffer, band: Layout.Band) {
        guard band.height > 0 else { return }
        buffer.write(
            "DEPENDENCIES (roots first; each under what it waits on)", x: 0, y: band.y,
            style: Theme.columnHeader, maxWidth: buffer.width)
        let rows = state.rows
        let snapshot = state.snapshot
        guard !rows.isByID else { return }
        if rows.ids.isEmpty {
            buffer.write("no operations", x: 1, y: band.y + 1, style: Theme.label)
            return
        }
        for line in 0..<(band.height - 1) {
            let index = state.scrollOffset + line
            guard index < rows.ids.count, let operation = snapshot.operation(id: rows.ids[index])
            else { break }
            let y = band.y + 1 + line
            let prefix = DependencyTree.prefix(rows.guides[index], glyphs: state.glyphs)
            var spans = [
                Span(prefix, Theme.border),
                Span("#\(operation.id) ", Theme.label),
                Span(String(state.glyphs.kind(operation.kind)) + " "),
                Span(operation.name + " "),
                Span(operation.stateLabel, Theme.state(operation.lifecycle, operation.outcome)),
            ]
            if operation.totalBytes > 0 && !operation.isFinished {
                spans.append(Span(" " + Format.percent(operation.fraction)))
            }
            let also = rows.alsoAfter[index]
            if !also.isEmpty {
                let list = also.map { "#\($0)" }.joined(separator: ", ")
                spans.append(Span(" (also after \(list))", Theme.label))
            }
            buffer.write(spans, x: 0, y: y, maxWidth: buffer.width)
            if operation.id == state.selectedID { buffer.reverse(y: y, x: 0, width: buffer.width) }
        }
    }
}
