/// A text with `{i}` placeholders, split once so a 1,000,000-member group substitutes quickly.
struct IndexTemplate {
    private let parts: [Substring]

    init(_ text: String) {
        parts = text.split(separator: "{i}", omittingEmptySubsequences: false)
    }

    /// The text with every `{i}` replaced by `number`, or unchanged (placeholders kept) when
    /// `number` is nil.
    func render(_ number: Int?) -> String {
        guard let number, parts.count > 1 else { return parts.joined(separator: "{i}") }
        return parts.joined(separator: String(number))
    }
}
