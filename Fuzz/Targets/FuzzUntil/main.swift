// `--until` conditions (UntilCondition.parseList): any text either parses or throws an
// UntilConditionError whose problem is one line with no control character; a parsed list's
// canonical description parses back to the same conditions, and parsing is deterministic.
import FuzzSupport
import OpsMonitor

fuzz { input in
    let text = String(decoding: input, as: UTF8.self)
    let conditions: [UntilCondition]
    do throws(UntilConditionError) {
        conditions = try UntilCondition.parseList(text)
    } catch {
        check(!error.problem.isEmpty, "empty problem")
        check(
            !error.problem.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "problem is not one plain line: \(error.problem.debugDescription)")
        check(error.problem.utf8.count < 1024, "problem is \(error.problem.utf8.count) bytes")
        return
    }
    check(!conditions.isEmpty, "no conditions and no error")
    check(conditions.count <= UntilCondition.maxConditions, "\(conditions.count) conditions")
    let canonical = conditions.map(\.description).joined(separator: ",")
    let again = try? UntilCondition.parseList(canonical)
    check(again == conditions, "\(canonical) parses to \(String(describing: again)), not \(conditions)")
    for condition in conditions {
        if case .count(_, _, let limit) = condition {
            check((0...UntilCondition.maxLimit).contains(limit), "limit \(limit)")
        }
        if case .stalled(let seconds, _) = condition {
            check((1...UntilCondition.maxStallSeconds).contains(seconds), "stall \(seconds) s")
        }
    }
}
