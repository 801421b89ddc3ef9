import OpsKit

/// A scenario that cannot be used; `description` is one line naming the source and the problem.
public struct ScenarioError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file path (as given) or built-in name.
    public var source: String
    /// The exact problem, e.g. `operations[3].size must be > 0 (got -5)`.
    public var problem: String

    /// Creates a value with every field given.
    public init(source: String, problem: String) {
        self.source = source
        self.problem = problem
    }

    /// `scenario '<source>': <problem>`, one printable line: control characters from the path or
    /// the file's content are escaped (`\n`, `\u{1B}`).
    public var description: String {
        ControlCharacterEscaping.escape("scenario '\(source)': \(problem)")
    }
}
