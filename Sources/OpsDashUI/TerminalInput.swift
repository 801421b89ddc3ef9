/// One input event from the terminal.
public enum TerminalInput: Sendable, Equatable {
    /// A key press.
    case key(Key)
    /// The terminal now has this size.
    case resize(width: Int, height: Int)
    /// The terminal is gone: hung up, or reading it fails or finds end of file.
    case closed
}
