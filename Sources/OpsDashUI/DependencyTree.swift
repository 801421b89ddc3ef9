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
        var links = Links(operations)
        if sort != .id { links.sortSiblings(operations, by: sort) }
        let filtered = Filtered(operations, needle: filter.lowercased(), failedOnly: failedOnly, links: links)
        var walk = Walk(links: links, filtered: filtered, expected: filtered?.kept.count ?? operations.count)
        walk.visit(links.roots)
        // Anything left sits on a dependency cycle; list it as a root so it still shows.
        if walk.ids.count < (filtered?.kept.count ?? operations.count) {
            walk.visit(operations.map(\.id).filter { !walk.visited.contains($0) })
        }
        let key = RowOrder.Key(
            version: snapshot.version, sort: sort, filter: filter, tree: true,
            operationCount: operations.count, failedOnly: failedOnly)
        var rows = RowOrder(ids: walk.ids, guides: walk.guides, alsoAfter: walk.alsoAfter, key: key)
        rows.depths = walk.depths
        rows.isContext = walk.isContext
        return rows
    }

    /// Who is listed under whom: each operation under its first dependency in the snapshot,
    /// its other ones noted; those with none are roots.
    private struct Links {
        var children: [Int: [Int]] = [:]
        var parentOf: [Int: Int] = [:]
        var roots: [Int] = []
        var others: [Int: [Int]] = [:]

        init(_ operations: ChunkedArray<OperationSnapshot>) {
            var present: Set<Int> = []
            present.reserveCapacity(operations.count)
            for operation in operations { present.insert(operation.id) }
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
        }

        /// Siblings in the table's order: one rank per id, then each list sorted by it.
        mutating func sortSiblings(_ operations: ChunkedArray<OperationSnapshot>, by sort: SortOrder) {
            var rank: [Int: Int] = [:]
            rank.reserveCapacity(operations.count)
            for (position, id) in RowOrder.sortedIDs(operations, sort: sort, needle: "").enumerated() {
                rank[id] = position
            }
            let byRank = { (a: Int, b: Int) in (rank[a] ?? 0) < (rank[b] ?? 0) }
            roots.sort(by: byRank)
            for key in children.keys { children[key]?.sort(by: byRank) }
        }
    }

    /// The filter's rows: the matches, plus everything above them so each keeps its place in
    /// the tree (shown as context).
    private struct Filtered {
        var kept: Set<Int> = []
        var matched: Set<Int> = []

        /// Nil when nothing filters.
        init?(_ operations: ChunkedArray<OperationSnapshot>, needle: String, failedOnly: Bool, links: Links) {
            guard !needle.isEmpty || failedOnly else { return nil }
            for operation in operations where RowOrder.matches(operation, needle, failedOnly: failedOnly) {
                matched.insert(operation.id)
                var id: Int? = operation.id
                while let current = id, kept.insert(current).inserted { id = links.parentOf[current] }
            }
        }
    }

    /// The rows in walking order, each with its guides, depth and other dependencies.
    private struct Walk {
        let links: Links
        let filtered: Filtered?
        var ids: [Int] = []
        var guides: [[Bool]] = []
        var alsoAfter: [[Int]] = []
        var depths: [Int] = []
        var isContext: [Bool] = []
        var visited: Set<Int> = []

        init(links: Links, filtered: Filtered?, expected: Int) {
            self.links = links
            self.filtered = filtered
            ids.reserveCapacity(expected)
        }

        /// Walks depth first from `start` (iteratively, so long chains cannot overflow the
        /// stack), skipping what the filter leaves out and what was visited.
        mutating func visit(_ start: [Int]) {
            let start = filtered.map { filtered in start.filter { filtered.kept.contains($0) } } ?? start
            var stack: [(id: Int, ancestry: [Bool], depth: Int)] = []
            for (offset, id) in start.enumerated().reversed() {
                stack.append((id, [offset == start.count - 1], 0))
            }
            while let (id, path, depth) = stack.popLast() {
                guard visited.insert(id).inserted else { continue }
                ids.append(id)
                guides.append(path)
                depths.append(depth)
                alsoAfter.append(links.others[id] ?? [])
                isContext.append(filtered.map { !$0.matched.contains(id) } ?? false)
                var kids = (links.children[id] ?? []).filter { !visited.contains($0) }
                if let filtered { kids = kids.filter { filtered.kept.contains($0) } }
                let base = Array(path.suffix(maxDepth - 1))
                for (offset, kid) in kids.enumerated().reversed() {
                    stack.append((kid, base + [offset == kids.count - 1], depth + 1))
                }
            }
        }
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
