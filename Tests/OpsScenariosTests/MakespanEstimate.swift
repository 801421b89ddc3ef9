import OpsKit
import OpsScenarios

/// A list-scheduling estimate of how long a resolved scenario runs (simulated seconds).
enum MakespanEstimate {
    /// Seconds one operation keeps a slot, with transfer times scaled by `scale` (jitter bound).
    static func seconds(_ op: ResolvedOperation, scale: Double) -> Double {
        if let duration = op.duration { return seconds(duration) }
        guard let plan = op.plan else { return 0 }
        let latency = seconds(plan.latency)
        let full = Double(plan.totalBytes) / Double(plan.bandwidth) * scale
        guard let failure = plan.failure else { return latency + full }
        let failing = min(failure.failingAttempts ?? (plan.maxRetries + 1), plan.maxRetries + 1)
        let retried = min(failing, plan.maxRetries)
        var total = Double(failing) * (latency + full * failure.atFraction)
        for n in 0..<retried { total += seconds(plan.retryBackoff) * Double(1 << n) }
        if failing <= plan.maxRetries { total += latency + full }
        return total
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Greedy list scheduling in file order with `concurrency` slots, honouring dependencies.
    static func makespan(_ scenario: ResolvedScenario, scale: Double = 1) -> Double {
        let ops = scenario.operations
        var index: [String: Int] = [:]
        for (i, op) in ops.enumerated() { index[op.id] = i }
        var waiting = ops.map(\.dependencies.count)
        var dependents = Array(repeating: [Int](), count: ops.count)
        for (i, op) in ops.enumerated() {
            for dep in op.dependencies { if let d = index[dep] { dependents[d].append(i) } }
        }
        var ready = ops.indices.filter { waiting[$0] == 0 }
        var head = 0
        var running: [(finish: Double, op: Int)] = []
        var now = 0.0
        var done = 0
        while done < ops.count {
            while running.count < scenario.concurrency, head < ready.count {
                running.append((now + seconds(ops[ready[head]], scale: scale), ready[head]))
                head += 1
            }
            guard let next = running.indices.min(by: { running[$0].finish < running[$1].finish }) else { break }
            let (finish, op) = running.remove(at: next)
            now = finish
            done += 1
            for d in dependents[op] {
                waiting[d] -= 1
                if waiting[d] == 0 { ready.append(d) }
            }
        }
        return now
    }
}
