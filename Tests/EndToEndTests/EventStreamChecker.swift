import Foundation

/// Checks a `opsdash --headless` JSON Lines stream against the rules every run must keep, and
/// returns per-operation outcomes for determinism checks.
struct EventStreamChecker {
    private(set) var problems: [String] = []
    private(set) var outcomes: [String: String] = [:]
    private(set) var summary: [String: Any]?
    private var states: [Int: String] = [:]
    private var names: [Int: String] = [:]
    private var dependencies: [Int: [Int]] = [:]
    private var lastBytes: [Int: Int] = [:]
    private var totals: [Int: Int] = [:]
    /// Operations whose progress counts items, not bytes (`"unit":"items"`; no `unit` is bytes).
    private var countsItems: Set<Int> = []
    private var finalBytes: [Int: Int] = [:]
    private var executing = 0
    private var limit: Int
    /// The latest `t` seen: a line's `t` is never earlier.
    private var latestTime = -Double.infinity

    /// `limit` is the concurrency the run started with.
    init(limit: Int) {
        self.limit = limit
    }

    mutating func check(_ stream: String) {
        for (number, line) in stream.split(separator: "\n").enumerated() {
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let event = object["event"] as? String
            else {
                problems.append("line \(number + 1) is not a JSON event: \(line.prefix(120))")
                continue
            }
            if let time = (object["t"] as? NSNumber)?.doubleValue {
                if time < latestTime { problems.append("line \(number + 1): t \(time) after t \(latestTime)") }
                latestTime = max(latestTime, time)
            }
            apply(event, object, line: number + 1)
        }
        if summary == nil { problems.append("no summary line") }
        verifySummary()
    }

    private mutating func apply(_ event: String, _ object: [String: Any], line: Int) {
        let id = object["id"] as? Int ?? -1
        switch event {
        case "added":
            names[id] = object["op"] as? String
            dependencies[id] = object["after"] as? [Int] ?? []
            totals[id] = object["total"] as? Int ?? 0
            switch object["unit"] as? String ?? "bytes" {
            case "bytes": countsItems.remove(id)
            case "items": countsItems.insert(id)
            case let unit: problems.append("line \(line): #\(id) has unknown unit \(unit)")
            }
        case "linked":
            let added = object["after"] as? [Int] ?? []
            if names[id] == nil || states[id] == "finished" {
                problems.append("line \(line): linked #\(id), which is not an unfinished operation")
            }
            for dependency in added where names[dependency] == nil {
                problems.append("line \(line): #\(id) linked to #\(dependency), which was never added")
            }
            dependencies[id, default: []] += added
        case "state":
            let from = object["from"] as? String
            let to = object["to"] as? String ?? "?"
            if states[id] != from {
                problems.append("line \(line): #\(id) from \(from ?? "null") but was \(states[id] ?? "null")")
            }
            let legal: Set<String> = [
                "nil>waiting", "nil>ready", "waiting>ready", "ready>executing", "executing>finished", "ready>finished",
            ]
            if !legal.contains("\(from ?? "nil")>\(to)") {
                problems.append("line \(line): #\(id) illegal \(from ?? "nil") → \(to)")
            }
            if from == "ready", to == "finished", object["outcome"] as? String != "cancelled" {
                problems.append("line \(line): #\(id) finished without executing but not cancelled")
            }
            if to == "executing" {
                for dependency in dependencies[id] ?? [] where states[dependency] != "finished" {
                    problems.append("line \(line): #\(id) started before its dependency #\(dependency) finished")
                }
                executing += 1
                if executing > limit { problems.append("line \(line): \(executing) executing, limit \(limit)") }
            }
            if from == "executing" { executing -= 1 }
            if to == "finished", let name = names[id] {
                let outcome = object["outcome"] as? String ?? "?"
                outcomes[name] = outcome
                finalBytes[id] = outcome == "succeeded" ? totals[id] ?? 0 : lastBytes[id] ?? 0
            }
            states[id] = to
        case "progress":
            let bytes = object["bytes"] as? Int ?? -1
            let total = object["total"] as? Int ?? -1
            if bytes < (lastBytes[id] ?? 0) { problems.append("line \(line): #\(id) progress went back to \(bytes)") }
            if bytes < 0 || bytes > total {
                problems.append("line \(line): #\(id) progress \(bytes) outside 0…\(total)")
            }
            if states[id] == "finished" { problems.append("line \(line): #\(id) progress after finish") }
            lastBytes[id] = bytes
        case "queue":
            if let newLimit = object["limit"] as? Int { limit = max(limit, newLimit) }
        case "summary":
            summary = object
        default:
            problems.append("line \(line): unknown event \(event)")
        }
    }

    private mutating func verifySummary() {
        guard let summary else { return }
        for outcome in ["succeeded", "failed", "cancelled"] {
            let counted = outcomes.values.filter { $0 == outcome }.count
            if summary[outcome] as? Int != counted {
                problems.append("summary says \(outcome) \(summary[outcome] ?? "nil"), events say \(counted)")
            }
        }
        if summary["operations"] as? Int != names.count {
            problems.append("summary says \(summary["operations"] ?? "nil") operations, events added \(names.count)")
        }
        // The summary's `bytes` counts bytes only: items (tiles, pages) are not added in.
        let bytes = finalBytes.filter { !countsItems.contains($0.key) }.values.reduce(0, +)
        if summary["bytes"] as? Int != bytes {
            problems.append("summary says \(summary["bytes"] ?? "nil") bytes, events say \(bytes)")
        }
    }
}
