/// A terminal's size in cells.
public struct TerminalSize: Sendable, Equatable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// A size of `width × height` cells.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
