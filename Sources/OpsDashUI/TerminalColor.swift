/// A terminal colour, named; the backend maps it to what the terminal can show.
public enum TerminalColor: UInt8, Sendable, Hashable, CaseIterable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white
}
