import OpsKit

/// Why an `--until` condition was refused: one line naming the problem and the offending text
/// (control characters escaped, long text cut), e.g. `unknown count 'fialed' in 'fialed>0'
/// (one of: waiting, ready, …, stalled)`.
public struct UntilConditionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problem, one line.
    public let problem: String

    init(_ problem: String) {
        self.problem = problem
    }

    public var description: String { problem }

    /// `text` quoted for a one-line message: escaped, and cut to `excerptLength` characters.
    static func quoted(_ text: Substring) -> String {
        let cut = text.count > excerptLength ? text.prefix(excerptLength) + "…" : text
        return "'" + ControlCharacterEscaping.escape(String(cut)) + "'"
    }

    /// The most characters of the input a message repeats.
    static let excerptLength = 64
}
