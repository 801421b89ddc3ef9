/// A text with `{i}` placeholders, split once so a 1,000,000-member group substitutes quickly.
struct IndexTemplate {
    private let text: String
    /// The text split at each `{i}`; empty when it has none (most ids and names of a file
    /// written out one entry per operation: no split, no copy).
    private let parts: [Substring]

    init(_ text: String) {
        self.text = text
        parts =
            text.utf8.contains(UInt8(ascii: "{"))
            ? text.split(separator: "{i}", omittingEmptySubsequences: false) : []
    }

    /// The text with every `{i}` replaced by `number`, or unchanged (placeholders kept) when
    /// `number` is nil.
    func render(_ number: Int?) -> String {
        guard let number, parts.count > 1 else { return text }
        return parts.joined(separator: String(number))
    }
}
