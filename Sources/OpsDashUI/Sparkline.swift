/// Values drawn as block glyphs scaled to a peak: one row (`▁` zero up to `█` the peak) for the
/// header, or a chart of several rows (eighths of a cell) for the history view. ASCII drawing
/// uses `_` for zero and `.:-=+*#` up to the peak in a row, `.` and `#` in a chart.
enum Sparkline {
    /// One glyph a value, scaled to `peak` (the largest value when nil): zero is the lowest glyph,
    /// any value above zero at least the second.
    static func row(_ values: some Collection<Int64>, peak: Int64? = nil, glyphs: GlyphSet) -> String {
        let peak = max(1, peak ?? values.max() ?? 1)
        var text = ScalarText(capacity: values.count)
        for value in values { text.append(glyph(value, peak: peak, glyphs: glyphs)) }
        return text.string
    }

    /// The glyph of `value` scaled to `peak` (at least 1), one narrow scalar: the lowest for zero,
    /// any value above zero at least the second.
    static func glyph(_ value: Int64, peak: Int64, glyphs: GlyphSet) -> Unicode.Scalar {
        let levels = glyphs == .unicode ? unicodeLevels : asciiLevels
        guard value > 0 else { return levels[0] }
        // 1…7: the fraction of the peak in sevenths, rounded up (a small value still shows).
        let level = Int((Double(min(value, peak)) / Double(peak) * 7).rounded(.up))
        return levels[min(7, max(1, level))]
    }

    private static let unicodeLevels: [Unicode.Scalar] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    private static let asciiLevels: [Unicode.Scalar] = ["_", ".", ":", "-", "=", "+", "*", "#"]

    /// Row `row` (0 at the top) of a chart `height` rows tall of `value` scaled to `peak`: blank
    /// above the value, full below it, an eighth-block at its top (a value above zero shows at
    /// least one eighth).
    static func chartCell(_ value: Int64, peak: Int64, row: Int, height: Int, glyphs: GlyphSet) -> Character {
        guard value > 0, height > 0 else { return " " }
        let fraction = Double(min(value, max(1, peak))) / Double(max(1, peak))
        let eighths = max(1, Int((fraction * Double(height * 8)).rounded()))
        let fill = min(8, max(0, eighths - (height - 1 - row) * 8))
        switch fill {
        case 0: return " "
        case 8: return glyphs == .unicode ? "█" : "#"
        default:
            guard glyphs == .unicode else { return fill >= 4 ? ":" : "." }
            let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇"]
            return blocks[fill - 1]
        }
    }

    /// `values` in columns of `per` consecutive values each (at least 1), the last column ending
    /// with the newest value (the first may hold fewer): each the largest of its values.
    static func downsampled(_ values: [Int64], per: Int) -> [Int64] {
        let per = max(1, per)
        guard per > 1 else { return values }
        var result: [Int64] = []
        result.reserveCapacity(values.count / per + 1)
        var end = values.count
        while end > 0 {
            let start = max(0, end - per)
            result.append(values[start..<end].max() ?? 0)
            end = start
        }
        return result.reversed()
    }
}

/// Text built a scalar at a time as UTF-8 bytes and made a `String` once: appending to a
/// `String.UnicodeScalarView` costs hundreds of instructions a scalar, and a header sparkline
/// is built again on most busy frames.
struct ScalarText {
    private var bytes: [UInt8] = []

    /// Room for `capacity` scalars of up to three bytes (every glyph a sparkline draws).
    init(capacity: Int) {
        bytes.reserveCapacity(3 * max(0, capacity))
    }

    /// Appends `scalar` in UTF-8.
    mutating func append(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        switch value {
        case ..<0x80:
            bytes.append(UInt8(value))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case ..<0x1_0000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }

    /// The text appended so far.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets the text, keeping the room.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }
}
