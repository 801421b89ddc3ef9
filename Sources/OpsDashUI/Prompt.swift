/// A question the dashboard is waiting for the operator to answer.
public enum Prompt: Sendable, Equatable {
    /// "Cancel all N unfinished operations? (y/n)"; `count` follows each snapshot.
    case cancelAll(count: Int)
    /// "Cancel 12 operations matching 'photo'? (y/n)" (`X`): the unfinished operations the
    /// filter (and the failed-only toggle) listed when asked, less those finished since.
    case cancelMatching(operationIDs: [Int], filter: String)
    /// "Cancel #12 and its 5 dependents? (y/n)" (`x`): the unfinished ones of the selected
    /// operation and every operation depending on it, less those finished since.
    case cancelSubtree(root: Int, operationIDs: [Int])

    /// The operations a yes cancels; empty for `cancelAll`, which cancels every one.
    var operationIDs: [Int] {
        switch self {
        case .cancelAll: []
        case .cancelMatching(let ids, _), .cancelSubtree(_, let ids): ids
        }
    }

    /// The same question about only those of its operations `isUnfinished` keeps; nil when
    /// none is left (nothing to ask).
    func keeping(_ isUnfinished: (Int) -> Bool) -> Prompt? {
        switch self {
        case .cancelAll: return self
        case .cancelMatching(let ids, let filter):
            let left = ids.filter(isUnfinished)
            return left.isEmpty ? nil : .cancelMatching(operationIDs: left, filter: filter)
        case .cancelSubtree(let root, let ids):
            let left = ids.filter(isUnfinished)
            return left.isEmpty ? nil : .cancelSubtree(root: root, operationIDs: left)
        }
    }

    /// The question as the footer asks it.
    var question: String {
        switch self {
        case .cancelAll(let count):
            return "Cancel all \(count) unfinished operation\(count == 1 ? "" : "s")? (y/n)"
        case .cancelMatching(let ids, let filter):
            let what = ids.count == 1 ? "1 operation" : "\(ids.count) operations"
            return filter.isEmpty ? "Cancel \(what) listed? (y/n)" : "Cancel \(what) matching '\(filter)'? (y/n)"
        case .cancelSubtree(let root, let ids):
            let others = ids.filter { $0 != root }.count
            let dependents = others == 1 ? "1 dependent" : "\(others) dependents"
            guard ids.contains(root) else { return "Cancel \(dependents) of #\(root)? (y/n)" }
            return others == 0 ? "Cancel #\(root)? (y/n)" : "Cancel #\(root) and its \(dependents)? (y/n)"
        }
    }
}
