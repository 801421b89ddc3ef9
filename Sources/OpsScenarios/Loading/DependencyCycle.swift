/// Finds a dependency cycle by depth-first search in declaration order (deterministic).
enum DependencyCycle {
    /// The first cycle found as ids `[a, b, c, a]`, or nil. `dependencies` must refer to known ids.
    static func find(ids: [String], dependencies: [String: [String]]) -> [String]? {
        enum Mark { case visiting, done }
        var marks: [String: Mark] = [:]
        var stack: [String] = []
        // Iterative DFS: (node, index of next dependency to visit).
        for root in ids where marks[root] == nil {
            var frames: [(String, Int)] = [(root, 0)]
            marks[root] = .visiting
            stack.append(root)
            while let (node, next) = frames.last {
                let deps = dependencies[node] ?? []
                if next < deps.count {
                    frames[frames.count - 1].1 += 1
                    let dep = deps[next]
                    switch marks[dep] {
                    case .visiting:
                        let start = stack.lastIndex(of: dep) ?? 0
                        return Array(stack[start...]) + [dep]
                    case .done:
                        continue
                    case nil:
                        marks[dep] = .visiting
                        stack.append(dep)
                        frames.append((dep, 0))
                    }
                } else {
                    marks[node] = .done
                    stack.removeLast()
                    frames.removeLast()
                }
            }
        }
        return nil
    }
}
