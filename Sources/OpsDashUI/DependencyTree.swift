import OpsMonitor

/// Lays operations out as a tree: roots first, each operation under its first tracked
/// dependency, the other dependencies noted as "also after". Siblings follow the table's sort;
/// a filter keeps the matching operations and, as context, what they are listed under.
enum DependencyTree {
    /// Deepest ancestry kept per row; deeper rows draw with the last guide repeated.
    static let maxDepth = 32

    /// The tree rows for `snapshot`, depth first, siblings in `sort` order, only the rows that
    /// match `filter` (and have failed, when `failedOnly`) and their ancestors. O(n log n + edges).
    static func rows(
        for snapshot: QueueSnapshot, sort: SortOrder = .id, filter: String = "", failedOnly: Bool = false
    ) -> RowOrder {
        let operations = snapshot.operations
        var present: Set<Int> = []
        present.reserveCapacity(operations.count)
        for operation in operations { present.insert(operation.id) }

        var children: [Int: [Int]] = [:]
        var parentOf: [Int: Int] = [:]
        var roots: [Int] = []
        var others: [Int: [Int]] = [:]
        for operation in operations {
            let tracked = operation.dependencies.filter {
                present.contains($0) && $0 != operation.id
            }
            if let parent = tracked.first {
                children[parent, default: []].append(operation.id)
                parentOf[operation.id] = parent
                if tracked.count > 1 { others[operation.id] = Array(tracked.dropFirst()) }
            } else {
                roots.append(operation.id)
            }
        }

        // Siblings in the table's order: one rank per id, then each list sorted by it.
        if sort != .id {
            var rank: [Int: Int] = [:]
            rank.reserveCapacity(operations.count)
            for (position, id) in RowOrder.sortedIDs(operations, sort: sort, needle: "").enumerated() {
                rank[id] = position
            }
            let byRank = { (a: Int, b: Int) in (rank[a] ?? 0) < (rank[b] ?? 0) }
            roots.sort(by: byRank)
            for key in children.keys { children[key]?.sort(by: byRank) }
        }

        // The filter: matches, plus everything above them so each keeps its place in the tree.
        let needle = filter.lowercased()
        var kept: Set<Int>? = nil
        var matched: Set<Int> = []
        if !needle.isEmpty || failedOnly {
            var keep: Set<Int> = []
            for operation in operations where RowOrder.matches(operation, needle, failedOnly: failedOnly) {
                matched.insert(operation.id)
                var id: Int? = operation.id
                while let current = id, keep.insert(current).inserted { id = parentOf[current] }
            }
            kept = keep
        }

        var ids: [Int] = []
        var guides: [[Bool]] = []
        var alsoAfter: [[Int]] = []
        var depths: [Int] = []
        var isContext: [Bool] = []
        ids.reserveCapacity(kept?.count ?? operations.count)
        var visited: Set<Int> = []

        func walk(_ start: [Int]) {
            // Iterative depth-first walk so long chains cannot overflow the stack.
            let start = kept.map { keep in start.filter { keep.contains($0) } } ?? start
            var stack: [(id: Int, ancestry: [Bool], depth: Int)] = []
            for (offset, id) in start.enumerated().reversed() {
                stack.append((id, [offset == start.count - 1], 0))
            }
            while let (id, path, depth) = stack.popLast() {
                guard visited.insert(id).inserted else { continue }
                ids.append(id)
                guides.append(path)
                depths.append(depth)
                alsoAfter.append(others[id] ?? [])
                isContext.append(kept != nil && !matched.contains(id))
                var kids = (children[id] ?? []).filter { !visited.contains($0) }
                if let keep = kept { kids = kids.filter { keep.contains($0) } }
                let base = Array(path.suffix(maxDepth - 1))
                for (offset, kid) in kids.enumerated().reversed() {
                    stack.append((kid, base + [offset == kids.count - 1], depth + 1))
                }
            }
        }

        walk(roots)
        // Anything left sits on a dependency cycle; list it as a root so it still shows.
        if ids.count < (kept?.count ?? operations.count) {
            walk(operations.map(\.id).filter { !visited.contains($0) })
        }
        let key = RowOrder.Key(
            version: snapshot.version, sort: sort, filter: filter, tree: true,
            operationCount: operations.count, failedOnly: failedOnly)
        var rows = RowOrder(ids: ids, guides: guides, alsoAfter: alsoAfter, key: key)
        rows.depths = depths
        rows.isContext = isContext
        return rows
    }

    /// Levels a folded row still draws after its depth marker.
    static let foldedLevels = 4

    /// The indentation drawn before a row with `path` (see `RowOrder.guides`) at `depth`, at
    /// most `maxColumns` wide: deeper rows keep their last `foldedLevels` levels behind a
    /// depth marker (`…17 │  └─ `), so the row itself always shows.
    static func prefix(_ path: [Bool], depth: Int, glyphs: GlyphSet, maxColumns: Int) -> String {
        guard path.count > 1, depth > 0 else { return "" }
        // path[0] is the root's own flag; levels 1..<last are ancestors below the root.
        let levels = path.count - 1
        if depth == levels && 3 * levels <= maxColumns {
            var text = ""
            for level in 1..<(path.count - 1) {
                text += glyphs.treeGuide(continues: !path[level])
            }
            return text + glyphs.treeBranch(last: path[path.count - 1])
        }
        let marker = "\(glyphs.ellipsis)\(depth) "
        let shown = max(1, min(foldedLevels, levels, (maxColumns - marker.count) / 3))
        var text = marker
        for level in (path.count - shown)..<(path.count - 1) {
            text += glyphs.treeGuide(continues: !path[level])
        }
        return text + glyphs.treeBranch(last: path[path.count - 1])
    }
}
