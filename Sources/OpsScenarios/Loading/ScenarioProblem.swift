/// A validation problem without the source name; the loader turns it into a `ScenarioError`.
struct ScenarioProblem: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// A number as written by a person: `-5`, `1.5`, `2000000000000`.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e18 { return String(Int64(value)) }
        return String(value)
    }
}
