import OpsKit

/// A cell's grapheme as a plain number, so that a cell holds no reference: filling, copying and
/// comparing the thousands of cells of a frame then costs no reference counting (a `Character`
/// field made every cell copy a retain and a release).
///
/// A grapheme of one Unicode scalar (nearly every one a dashboard shows) is that scalar's
/// value. A grapheme of several (a flag, an emoji sequence, a letter with a combining mark) is
/// kept once in a table and numbered past the last scalar; the table holds at most `capacity`
/// graphemes (a peer naming operations in more distinct ones gets U+FFFD for the rest), so
/// hostile text can't grow it without bound.
final class CellGlyph: Sendable {
    /// The table every cell uses.
    static let shared = CellGlyph(capacity: 4_096)

    /// The first number past Unicode's scalars, where table entries start.
    static let firstTableCode: UInt32 = 0x11_0000
    /// U+FFFD REPLACEMENT CHARACTER, for a grapheme a full table can't take.
    static let replacement: UInt32 = 0xFFFD

    // Locking: the multi-scalar graphemes are behind `table`'s lock.
    private struct Table {
        var graphemes: [Character] = []
        var codes: [Character: UInt32] = [:]
    }
    private let table = OpsMutex(Table())
    /// The most multi-scalar graphemes kept.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The number standing for `character`.
    func code(for character: Character) -> UInt32 {
        var scalars = character.unicodeScalars.makeIterator()
        if let first = scalars.next(), scalars.next() == nil { return first.value }
        return table.withLock { table in
            if let known = table.codes[character] { return known }
            guard table.graphemes.count < capacity else { return Self.replacement }
            let code = Self.firstTableCode + UInt32(table.graphemes.count)
            table.graphemes.append(character)
            table.codes[character] = code
            return code
        }
    }

    /// The grapheme `code` stands for.
    func character(for code: UInt32) -> Character {
        if code < Self.firstTableCode, let scalar = Unicode.Scalar(code) { return Character(scalar) }
        let index = Int(code - min(code, Self.firstTableCode))
        return table.withLock { index < $0.graphemes.count ? $0.graphemes[index] : "\u{FFFD}" }
    }
}
