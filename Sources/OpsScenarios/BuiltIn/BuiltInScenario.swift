import Foundation

/// A scenario compiled into the module; its JSON text is byte-identical to the Demos file.
public struct BuiltInScenario: Sendable {
    /// Name used by `--scenario`.
    public let name: String
    /// The scenario's JSON text (single source of truth for the Demos file).
    public let json: String

    /// The one-line `description` from the JSON (for `--list-scenarios`).
    public var summary: String {
        (try? ScenarioLoader.parse(data: Data(json.utf8), source: name))?.description ?? ""
    }

    /// Decodes and validates the scenario, optionally with another seed.
    public func resolve(seedOverride: UInt64? = nil) throws(ScenarioError) -> ResolvedScenario {
        try ScenarioLoader.decode(data: Data(json.utf8), source: name, seedOverride: seedOverride)
    }
}
