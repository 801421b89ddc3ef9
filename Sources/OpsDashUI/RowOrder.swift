import OpsMonitor

/// The rows the table (or tree) lists, as a view over the snapshot.
///
/// With the id sort, no filter and no tree, rows are the snapshot's own `operations` (already in
/// id order), so nothing is copied and a row is found in O(1). Otherwise the ids are computed
/// once per snapshot version and cached here.
public struct RowOrder: Sendable, Equatable {
    /// What the cached rows were computed from.
    public struct Key: Sendable, Equatable {
        /// The snapshot version the rows were computed from.
        public var version: UInt64
        /// The sort applied.
        public var sort: SortOrder
        /// The filter text applied.
        public var filter: String
        /// Whether these are dependency-tree rows.
        public var tree: Bool
        /// The snapshot's operation count, as a guard against reused versions.
        public var operationCount: Int
        /// Whether only failed operations are listed (`!`).
        package var failedOnly = false
    }

    /// Row ids in order; unused for `byID`.
    public var ids: [Int]
    /// For the tree: each row's ancestry, outermost first, `true` where the node at that level
    /// is its parent's last child; the last element is the row itself.
    public var guides: [[Bool]]
    /// For the tree: each row's dependencies other than the parent it is listed under.
    public var alsoAfter: [[Int]]
    /// For the tree: each row's depth (0 for a root), however deep.
    public var depths: [Int] = []
    /// For a filtered tree: rows that don't match the filter and are listed only because
    /// something under them does.
    public var isContext: [Bool] = []
    /// The key these rows were computed for; `nil` for `byID`.
    public var key: Key?
    /// For the state order: what it was computed from, chunk by chunk, so that the next
    /// snapshot's order recomputes only the chunks that changed.
    var ranked: RankedChunks?

    /// Rows are the snapshot's operations in id order.
    public static let byID = RowOrder(ids: [], guides: [], alsoAfter: [], key: nil)

    /// Whether rows are the snapshot's operations themselves. Reads the key's case alone: `key
    /// == nil` copied the whole key (through its type's value witnesses, ~120 instructions) at
    /// each of a frame's few dozen reads.
    public var isByID: Bool {
        if case .none = key { return true }
        return false
    }

    /// The number of rows.
    public func count(in snapshot: QueueSnapshot) -> Int {
        isByID ? snapshot.operations.count : ids.count
    }

    /// The operation on row `index`, if any; O(1) by id, O(log n) otherwise.
    public func operation(at index: Int, in snapshot: QueueSnapshot) -> OperationSnapshot? {
        if isByID {
            guard index >= 0, index < snapshot.operations.count else { return nil }
            return snapshot.operations[index]
        }
        guard index >= 0, index < ids.count else { return nil }
        return snapshot.operation(id: ids[index])
    }

    /// Where the operation on row `index` is in `snapshot.operations`, if there is one; read it
    /// in place there (`ChunkedArray.withElement`) rather than copy it out.
    func position(at index: Int, in snapshot: QueueSnapshot) -> Int? {
        if isByID { return index >= 0 && index < snapshot.operations.count ? index : nil }
        guard index >= 0, index < ids.count else { return nil }
        return snapshot.position(ofID: ids[index])
    }

    /// The row showing operation `id`, if listed.
    public func index(of id: Int, in snapshot: QueueSnapshot) -> Int? {
        guard isByID else { return ids.firstIndex(of: id) }
        let position = lowerBound(id, in: snapshot)
        guard position < snapshot.operations.count, snapshot.operations[position].id == id else {
            return nil
        }
        return position
    }

    /// The row nearest to where operation `id` was (`previousIndex`), for when it left the rows.
    public func nearestIndex(to id: Int, previousIndex: Int, in snapshot: QueueSnapshot) -> Int {
        let count = count(in: snapshot)
        guard count > 0 else { return 0 }
        if isByID { return min(lowerBound(id, in: snapshot), count - 1) }
        return min(max(0, previousIndex), count - 1)
    }

    private func lowerBound(_ id: Int, in snapshot: QueueSnapshot) -> Int {
        var low = 0
        var high = snapshot.operations.count
        while low < high {
            let mid = (low + high) / 2
            if snapshot.operations[mid].id < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The rows for `snapshot` under `sort`, `filter` and the tree view: `byID` when nothing
    /// needs computing, else an O(n log n) pass over small (key, id) pairs.
    public static func make(
        for snapshot: QueueSnapshot, sort: SortOrder, filter: String, tree: Bool
    ) -> RowOrder {
        make(for: snapshot, sort: sort, filter: filter, tree: tree, failedOnly: false)
    }

    /// The rows as `make(for:sort:filter:tree:)` lists them, only the failed ones when
    /// `failedOnly`. `previous`, the rows of an earlier snapshot: the state order reuses what it
    /// computed for the chunks of operations the two snapshots share (`RankedChunks`).
    package static func make(
        for snapshot: QueueSnapshot, sort: SortOrder, filter: String, tree: Bool, failedOnly: Bool,
        previous: RowOrder? = nil
    ) -> RowOrder {
        if tree {
            return DependencyTree.rows(for: snapshot, sort: sort, filter: filter, failedOnly: failedOnly)
        }
        let needle = filter.lowercased()
        if sort == .id && needle.isEmpty && !failedOnly { return .byID }
        let key = Key(
            version: snapshot.version, sort: sort, filter: filter, tree: false,
            operationCount: snapshot.operations.count, failedOnly: failedOnly)
        if sort == .state {
            let ranked = RankedChunks(
                snapshot.operations, needle: needle, failedOnly: failedOnly, reusing: previous?.ranked)
            var rows = RowOrder(ids: ranked.ids, guides: [], alsoAfter: [], key: key)
            rows.ranked = ranked
            return rows
        }
        return RowOrder(
            ids: sortedIDs(snapshot.operations, sort: sort, needle: needle, failedOnly: failedOnly),
            guides: [], alsoAfter: [], key: key)
    }

    /// The ids of `operations` matching `needle` (lowercased), in `sort` order, ties by id.
    ///
    /// Reads only the fields the order needs, by index: copying each operation out of the
    /// snapshot (names, histories, dependency lists: a retain and a release each) was most of a
    /// busy frame's cost.
    static func sortedIDs(
        _ operations: ChunkedArray<OperationSnapshot>, sort: SortOrder, needle: String, failedOnly: Bool = false
    ) -> [Int] {
        let count = operations.count
        let filtering = !needle.isEmpty || failedOnly
        switch sort {
        case .id:
            var ids: [Int] = []
            ids.reserveCapacity(count)
            for index in 0..<count where !filtering || matches(operations[index], needle, failedOnly: failedOnly) {
                ids.append(operations[index].id)
            }
            return ids
        case .state:
            // Six ranks: a stable bucket pass, no comparison sort.
            var buckets: [[Int]] = Array(repeating: [], count: 6)
            for index in 0..<count where !filtering || matches(operations[index], needle, failedOnly: failedOnly) {
                let rank = DisplayState(operations[index].lifecycle, operations[index].outcome).sortRank
                buckets[rank].append(operations[index].id)
            }
            var ids: [Int] = []
            ids.reserveCapacity(count)
            for bucket in buckets { ids.append(contentsOf: bucket) }
            return ids
        case .progress, .rate:
            var keyed: [(key: Double, id: Int)] = []
            keyed.reserveCapacity(count)
            for index in 0..<count where !filtering || matches(operations[index], needle, failedOnly: failedOnly) {
                let key = sort == .progress ? operations[index].fraction : operations[index].unitsPerSecond
                keyed.append((key, operations[index].id))
            }
            keyed.sort { $0.key != $1.key ? $0.key > $1.key : $0.id < $1.id }
            return keyed.map(\.id)
        }
    }

    /// Whether `operation` matches the lowercased filter text by name, `#id` or state, and
    /// has failed when `failedOnly`.
    static func matches(_ operation: OperationSnapshot, _ needle: String, failedOnly: Bool = false) -> Bool {
        if failedOnly, operation.lifecycle != .finished || operation.outcome != .failed { return false }
        guard !needle.isEmpty else { return true }
        return operation.name.lowercased().contains(needle) || "#\(operation.id)".contains(needle)
            || operation.displayState.word.contains(needle)
    }
}
