// Scenario files (docs/SCENARIOS.md): ScenarioLoader.decode, the strict JSON check with
// positions, the field decoding and the resolver. A file either resolves or throws a
// ScenarioError whose problem is one line; resolving is deterministic and stays within
// ScenarioLimits.
import Foundation
import FuzzSupport
import OpsScenarios

fuzz { input in
    let data = Data(input)
    let first: ResolvedScenario
    do throws(ScenarioError) {
        let file = try ScenarioLoader.parse(data: data, source: "fuzz.json")
        // Resolving costs time in proportion to the operations (up to ScenarioLimits'
        // million, as documented): past a few thousand only the parse is fuzzed.
        let operations = file.operations.reduce(0) { $0 + ($1.repeat ?? 1) }
        guard operations <= 5_000 else { return }
        first = try ScenarioLoader.decode(data: data, source: "fuzz.json")
    } catch {
        check(!error.problem.isEmpty, "empty problem")
        check(!error.description.contains("\n"), "problem is not one line: \(error.description)")
        return
    }
    check(first.operations.count <= ScenarioLimits.maxOperations, "\(first.operations.count) operations")
    let again = try? ScenarioLoader.decode(data: data, source: "fuzz.json")
    check(again == first, "decoding the same bytes twice differs")
}
