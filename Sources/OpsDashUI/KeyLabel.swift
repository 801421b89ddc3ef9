/// How a key is written on screen: with Unicode glyphs, and in plain ASCII.
struct KeyLabel: Sendable, Equatable {
    let unicode: String
    let ascii: String

    /// A label written the same in both glyph sets unless `ascii` is given.
    init(_ unicode: String, ascii: String? = nil) {
        self.unicode = unicode
        self.ascii = ascii ?? unicode
    }

    /// The label in `glyphs`.
    func text(_ glyphs: GlyphSet) -> String { glyphs == .unicode ? unicode : ascii }
}
