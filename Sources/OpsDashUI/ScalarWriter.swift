/// Puts narrow scalars (printable ASCII, `→`, block glyphs: one column each) one after another
/// into a row of a `CellBuffer`'s storage, each part in its own style: a line made of many
/// short parts (a log line's time, id, name and state words; the header's counts) written in
/// one pass, with no string built, checked or measured per part. Cells outside the columns it
/// may store (a widget's area, clipped) are skipped; the column still advances.
///
/// Lent by `CellBuffer.writeScalars` for the length of its closure alone.
struct ScalarWriter {
    /// The row's first cell; nil when the row is outside the buffer (nothing is stored).
    let row: UnsafeMutablePointer<Cell>?
    /// The columns stored: `lower..<limit`.
    let lower: Int
    let limit: Int
    /// The column the next scalar goes to (buffer columns).
    private(set) var column: Int

    /// A writer storing into `row` (nil: nowhere) columns `lower..<limit`, from `column`.
    init(row: UnsafeMutablePointer<Cell>?, lower: Int, limit: Int, column: Int) {
        self.row = row
        self.lower = lower
        self.limit = limit
        self.column = column
    }

    /// Puts `scalar`, one column wide, in `style`.
    @inline(__always)
    mutating func put(_ scalar: Unicode.Scalar, style: CellStyle) {
        if let row, column >= lower, column < limit { row[column] = Cell(scalar: scalar, style: style) }
        column += 1
    }

    /// Puts `text`, printable ASCII, in `style`.
    mutating func put(ascii text: StaticString, style: CellStyle) {
        text.withUTF8Buffer { bytes in
            for byte in bytes { put(Unicode.Scalar(byte), style: style) }
        }
    }

    /// Puts `text`, which the caller knows is printable ASCII (a column a byte), in `style`.
    mutating func put(printableASCII text: String, style: CellStyle) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { put(Unicode.Scalar(byte), style: style) }
        }
        if done == nil {
            for byte in text.utf8 { put(Unicode.Scalar(byte), style: style) }
        }
    }

    /// Puts `value` in decimal, as `"\(value)"` reads, in `style`.
    mutating func put(digits value: Int, style: CellStyle) {
        if value < 0 { put("-", style: style) }
        let end = column + Digits.count(value) - (value < 0 ? 1 : 0)
        var magnitude = value.magnitude
        var at = end
        repeat {
            at -= 1
            if let row, at >= lower, at < limit {
                row[at] = Cell(scalar: Unicode.Scalar(UInt8(48 + magnitude % 10)), style: style)
            }
            magnitude /= 10
        } while magnitude > 0
        column = end
    }
}
