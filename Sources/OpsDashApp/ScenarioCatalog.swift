import Foundation
import OpsScenarios

/// Finds the scenario `--scenario` names (built-in or file) and lists the built-ins.
enum ScenarioCatalog {
    /// The `--list-scenarios` text: one line per built-in, name and description.
    static func listing() -> String {
        let all = Scenarios.sorted
        let width = all.map(\.name.count).max() ?? 0
        return all.map { scenario in
            let marker = scenario.name == Scenarios.defaultName ? " (default)" : ""
            return scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + scenario.summary + marker
        }.joined(separator: "\n") + "\n"
    }

    /// Loads a built-in by name or a JSON file by path, with an optional seed override.
    static func load(_ nameOrPath: String, seed: UInt64?) throws(ScenarioError) -> ResolvedScenario {
        try ScenarioLoader.load(nameOrPath: nameOrPath, seedOverride: seed)
    }
}
