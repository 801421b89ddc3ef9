/// Why the dashboard could not take over the terminal; `description` is the one line to print
/// after `opsdash: `, like every other error.
public struct TerminalError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The one-line message, ending with the `--headless` hint.
    public let description: String

    /// An error with the given one-line message.
    public init(_ description: String) { self.description = description }

    /// stdout is not a terminal (piped or redirected).
    public static let notInteractive = TerminalError(
        "stdout is not an interactive terminal; use --headless")

    /// TERM is unset or empty.
    public static let termUnset = TerminalError(
        "TERM is not set; the dashboard needs an interactive terminal; use --headless")

    /// TERM names a terminal that cannot run a full-screen program.
    public static func unusableTerm(_ term: String) -> TerminalError {
        TerminalError("TERM '\(term)' cannot run the dashboard; use --headless")
    }

    /// `/dev/tty` could not be opened.
    public static let noControllingTerminal = TerminalError(
        "cannot open /dev/tty; the dashboard needs an interactive terminal; use --headless")
}

/// Checks that stdout is a TTY and `term` can run a full-screen program; pure, for tests.
func checkInteractive(stdoutIsTTY: Bool, term: String?) -> TerminalError? {
    guard stdoutIsTTY else { return .notInteractive }
    guard let term, !term.isEmpty else { return .termUnset }
    if ["dumb", "unknown", "emacs"].contains(term) { return .unusableTerm(term) }
    return nil
}
