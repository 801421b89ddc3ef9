/// One character cell: a grapheme and its style.
///
/// A wide character (CJK, emoji: see `DisplayWidth`) takes two cells: a lead cell holding it
/// (`width == 2`) and, right of it, a continuation cell (`width == 0`) that draws nothing and
/// only keeps the column taken. `CellBuffer.write` lays them out; the terminal backend draws the
/// lead once and skips the continuation.
public struct Cell: Sendable, Hashable {
    /// The grapheme shown.
    public var character: Character {
        get { CellGlyph.shared.character(for: glyph) }
        set { glyph = CellGlyph.shared.code(for: newValue) }
    }
    /// The grapheme as a number (`CellGlyph`): a cell holds no reference.
    private var glyph: UInt32
    /// How it looks.
    public var style: CellStyle
    /// Columns the cell's character takes: 1, 2 for a wide character's lead cell, 0 for the
    /// continuation cell right of a wide character.
    public private(set) var width: UInt8
    /// Always 0: with it a cell's fields fill all its 12 bytes (no padding byte of unknown
    /// value), so two cells are equal exactly when their bytes are (`equal(at:_:_:)`).
    private var reserved: UInt8 = 0

    /// A cell showing `character`, a one-column grapheme, in `style`. Wide text goes through
    /// `CellBuffer.write`, which measures it.
    public init(_ character: Character = " ", style: CellStyle = .plain) {
        self.glyph = CellGlyph.shared.code(for: character)
        self.style = style
        self.width = 1
    }

    /// A cell showing the one-column grapheme `scalar` (what `init(_:style:)` makes of it as a
    /// `Character`, without building one).
    init(scalar: Unicode.Scalar, style: CellStyle) {
        self.glyph = scalar.value
        self.style = style
        self.width = 1
    }

    private init(_ character: Character, style: CellStyle, width: UInt8) {
        self.glyph = CellGlyph.shared.code(for: character)
        self.style = style
        self.width = width
    }

    /// The lead cell of a two-column `character`.
    static func wide(_ character: Character, style: CellStyle) -> Cell {
        Cell(character, style: style, width: 2)
    }

    /// The cell right of a wide character, in the character's style.
    static func continuation(style: CellStyle) -> Cell {
        Cell(" ", style: style, width: 0)
    }

    /// Whether this is the right half of a wide character (nothing of its own to draw).
    public var isContinuation: Bool { width == 0 }

    /// Plain numbers only: most cells a frame compares are equal.
    @inline(__always)
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.glyph == rhs.glyph && lhs.width == rhs.width && lhs.style == rhs.style
    }

    /// Whether a cell is 12 bytes, each one a field's (`reserved` fills what would be padding).
    @inline(__always)
    static var isPacked: Bool { MemoryLayout<Cell>.size == 12 && MemoryLayout<Cell>.stride == 12 }

    /// Whether the cells at `index` of two runs of cells, `a` and `b`, are equal: read as 8 and
    /// 4 bytes, where `==` reads 8 fields one at a time (each field is a number, a `Bool` or a
    /// `UInt8` enum, equal exactly when its bytes are).
    @inline(__always)
    static func equal(at index: Int, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard isPacked else {
            let offset = index * MemoryLayout<Cell>.stride
            return a.load(fromByteOffset: offset, as: Cell.self) == b.load(fromByteOffset: offset, as: Cell.self)
        }
        // An index of a buffer's cell: its offset can't overflow.
        let offset = index &* 12
        return a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            && a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt32.self)
    }

    /// The first index in `range` whose cells in `a` and `b` differ (`equal(at:_:_:)`), or
    /// `range.upperBound`. Equal cells are passed over four at a time, their 48 bytes compared
    /// as six words at once (a frame's rows drawn again are mostly equal cells), then one at
    /// a time from the first four that differ.
    @inline(__always)
    static func firstDifference(
        in range: Range<Int>, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer
    ) -> Int {
        var index = range.lowerBound
        if isPacked {
            while index &+ 4 <= range.upperBound {
                // Indexes of a buffer's cells: their offsets can't overflow.
                let offset = index &* 12
                func word(_ at: Int) -> UInt64 {
                    a.loadUnaligned(fromByteOffset: offset &+ at, as: UInt64.self)
                        ^ b.loadUnaligned(fromByteOffset: offset &+ at, as: UInt64.self)
                }
                guard word(0) | word(8) | word(16) | word(24) | word(32) | word(40) == 0 else { break }
                index &+= 4
            }
        }
        while index < range.upperBound && equal(at: index, a, b) { index += 1 }
        return index
    }

    /// A space in the default style.
    public static let blank = Cell()
}
