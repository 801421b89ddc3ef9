import OpsMonitor

/// Lays operations out as a tree: roots first, each operation under its first tracked
/// dependency, the other dependencies noted as "also after".
enum DependencyTree {
    /// Deepest ancestry kept per row; deeper rows draw with the last guide repeated.
    static let maxDepth = 32

    /// The tree rows for `snapshot`, depth first, siblings by id. O(n + edges).
    static func rows(for snapshot: QueueSnapshot) -> RowOrder {
        let operations = snapshot.operations
        var present: Set<Int> = []
        present.reserveCapacity(operations.count)
        for operation in operations { present.insert(operation.id) }

        var children: [Int: [Int]] = [:]
        var roots: [Int] = []
        var others: [Int: [Int]] = [:]
        for operation in operations {
            let tracked = operation.dependencies.filter {
                present.contains($0) && $0 != operation.id
            }
            if let parent = tracked.first {
                children[parent, default: []].append(operation.id)
                if tracked.count > 1 { others[operation.id] = Array(tracked.dropFirst()) }
            } else {
                roots.append(operation.id)
            }
        }

        var ids: [Int] = []
        var guides: [[Bool]] = []
        var alsoAfter: [[Int]] = []
        ids.reserveCapacity(operations.count)
        var visited: Set<Int> = []

        func walk(_ start: [Int], ancestry: [Bool]) {
            // Iterative depth-first walk so long chains cannot overflow the stack.
            var stack: [(id: Int, ancestry: [Bool])] = []
            for (offset, id) in start.enumerated().reversed() {
                stack.append((id, ancestry + [offset == start.count - 1]))
            }
            while let (id, path) = stack.popLast() {
                guard visited.insert(id).inserted else { continue }
                ids.append(id)
                guides.append(path)
                alsoAfter.append(others[id] ?? [])
                let kids = (children[id] ?? []).filter { !visited.contains($0) }
                let base = Array(path.suffix(maxDepth - 1))
                for (offset, kid) in kids.enumerated().reversed() {
                    stack.append((kid, base + [offset == kids.count - 1]))
                }
            }
        }

        walk(roots, ancestry: [])
        // Anything left sits on a dependency cycle; list it as a root so it still shows.
        if ids.count < operations.count {
            let rest = operations.map(\.id).filter { !visited.contains($0) }
            walk(rest, ancestry: [])
        }
        let key = RowOrder.Key(
            version: snapshot.version, sort: .id, filter: "", tree: true,
            operationCount: operations.count)
        return RowOrder(ids: ids, guides: guides, alsoAfter: alsoAfter, key: key)
    }

    /// The indentation drawn before a row with `path` (see `RowOrder.guides`); roots have a
    /// path of one element and no prefix.
    static func prefix(_ path: [Bool], glyphs: GlyphSet) -> String {
        guard path.count > 1 else { return "" }
        var text = ""
        // path[0] is the root's own flag; levels 1..<last are ancestors below the root.
        for level in 1..<(path.count - 1) {
            text += glyphs.treeGuide(continues: !path[level])
        }
        return text + glyphs.treeBranch(last: path[path.count - 1])
    }
}

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
                Span(operation.displayState.word, operation.displayState.style),
            ]
            if operation.totalBytes > 0 && !operation.hasFinished {
                spans.append(Span(" " + Format.percent(operation.fraction)))
            }
            let (why, whyStyle) = WaitReason(operation, in: state).cell
            if !why.isEmpty { spans.append(Span(" " + why, whyStyle)) }
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
