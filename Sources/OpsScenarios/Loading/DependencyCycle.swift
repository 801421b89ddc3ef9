/// Finds a dependency cycle by depth-first search in declaration order (deterministic).
enum DependencyCycle {
    /// The first cycle found, as positions `[a, b, c, a]`, or nil. `dependencies[p]` lists the
    /// positions operation `p` waits for (each in `dependencies.indices`).
    ///
    /// Positions, not ids: a million operations are searched with two arrays instead of
    /// dictionaries keyed by strings (the difference is seconds before a large scenario opens).
    static func find(dependencies: [[Int]]) -> [Int]? {
        enum Mark: UInt8 { case unvisited, visiting, done }
        var marks = [Mark](repeating: .unvisited, count: dependencies.count)
        var stack: [Int] = []
        // Iterative DFS: (node, index of next dependency to visit).
        var frames: [(node: Int, next: Int)] = []
        for root in dependencies.indices where marks[root] == .unvisited {
            frames.append((root, 0))
            marks[root] = .visiting
            stack.append(root)
            while let (node, next) = frames.last {
                let deps = dependencies[node]
                guard next < deps.count else {
                    marks[node] = .done
                    stack.removeLast()
                    frames.removeLast()
                    continue
                }
                frames[frames.count - 1].next += 1
                let dep = deps[next]
                switch marks[dep] {
                case .visiting:
                    let start = stack.lastIndex(of: dep) ?? 0
                    return Array(stack[start...]) + [dep]
                case .done:
                    continue
                case .unvisited:
                    marks[dep] = .visiting
                    stack.append(dep)
                    frames.append((dep, 0))
                }
            }
        }
        return nil
    }
}
