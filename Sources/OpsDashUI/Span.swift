/// A piece of styled text; widgets build lines from these.
public struct Span: Sendable, Equatable {
    /// The characters.
    public var text: String
    /// How they look.
    public var style: CellStyle

    /// A span of `text` in `style`.
    public init(_ text: String, _ style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// Columns the text takes on screen.
    public var width: Int { DisplayWidth.of(text) }
}
