/// The built-in scenarios, also shipped as `Demos/Scenarios/<name>.json`.
public enum Scenarios {
    /// The scenario `opsdash` runs without `--scenario`.
    public static let defaultName = "mixed"

    /// Every built-in scenario by name.
    public static let builtIn: [String: BuiltInScenario] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// Built-ins sorted by name (for `--list-scenarios`).
    public static var sorted: [BuiltInScenario] { all.sorted { $0.name < $1.name } }

    private static let all: [BuiltInScenario] = [
        BuiltInScenario(name: "downloads", json: BuiltInJSON.downloads),
        BuiltInScenario(name: "uploads", json: BuiltInJSON.uploads),
        BuiltInScenario(name: "pipeline", json: BuiltInJSON.pipeline),
        BuiltInScenario(name: "flaky", json: BuiltInJSON.flaky),
        BuiltInScenario(name: "mixed", json: BuiltInJSON.mixed),
        BuiltInScenario(name: "burst", json: BuiltInJSON.burst),
    ]
}
