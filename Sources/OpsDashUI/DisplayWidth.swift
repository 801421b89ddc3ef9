/// How many terminal columns text takes, per grapheme cluster (what the user sees as one
/// character): East Asian wide and fullwidth characters take 2, emoji shown as emoji (emoji
/// presentation, a VS16 selector, ZWJ sequences, flags) take 2, a lone combining mark or
/// zero-width character takes 0, and everything else 1. Ambiguous-width characters count as
/// narrow, as terminals in a UTF-8 locale outside East Asia show them.
public enum DisplayWidth {
    /// Columns `character` takes: 0, 1 or 2. O(1) for ASCII.
    public static func of(_ character: Character) -> Int {
        if character.isASCII { return 1 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var iterator = scalars.makeIterator()
        _ = iterator.next()
        guard iterator.next() != nil else { return of(first) }
        // A sequence: emoji variation, ZWJ, flags, keycaps, skin tones, combining marks.
        var hasTextSelector = false
        for scalar in scalars {
            switch scalar.value {
            case 0xFE0F: return 2  // VS16: shown as an emoji
            case 0xFE0E: hasTextSelector = true
            default: break
            }
        }
        if isRegionalIndicator(first) { return 2 }
        let base = of(first)
        if hasTextSelector { return max(1, base) }
        if first.properties.isEmojiPresentation { return 2 }
        // A cluster led by a zero-width scalar still occupies its own cell.
        return max(1, base)
    }

    /// Columns a lone `scalar` takes: 0, 1 or 2.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul vowels and finals join a syllable
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns `text` takes. O(n); O(1) per byte for ASCII.
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        if text.unicodeScalars.allSatisfy({ isLoneNarrow($0.value) }) { return text.unicodeScalars.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest start of `text` that fits in `columns`, never cutting a wide character in
    /// half, and the columns it takes.
    public static func prefix(_ text: String, columns: Int) -> (text: Substring, width: Int) {
        guard columns > 0 else { return (text[text.startIndex..<text.startIndex], 0) }
        var used = 0
        var end = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let width = of(character)
            if used + width > columns { break }
            used += width
            index = text.index(after: index)
            end = index
        }
        return (text[text.startIndex..<end], used)
    }

    /// The longest end of `text` that fits in `columns`, never cutting a wide character in
    /// half, and the columns it takes.
    package static func suffix(_ text: String, columns: Int) -> (text: Substring, width: Int) {
        guard columns > 0 else { return (text[text.endIndex..<text.endIndex], 0) }
        var used = 0
        var start = text.endIndex
        while start > text.startIndex {
            let index = text.index(before: start)
            let width = of(text[index])
            if used + width > columns { break }
            used += width
            start = index
        }
        return (text[start..<text.endIndex], used)
    }

    /// Whether `value` is a scalar that is a grapheme of its own, one column wide, next to any
    /// other such scalar: printable ASCII, Latin-1 and the Latin letters up to the combining
    /// marks (U+00A0–U+02FF), arrows (U+2190–U+21FF), box drawing and block elements
    /// (U+2500–U+259F, the dashboard's rules, bars and sparklines). None of them joins a
    /// neighbour into one grapheme (none is a mark, a joiner, a prepended or a Hangul jamo, and
    /// CR is left out), none is East Asian Wide or shown as an emoji, so text made only of them
    /// is one cell per scalar, measured and drawn without grapheme breaking.
    @inline(__always)
    static func isLoneNarrow(_ value: UInt32) -> Bool {
        (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0x300)
            || (value >= 0x2190 && value <= 0x21FF) || (value >= 0x2500 && value <= 0x259F)
    }

    private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= wideRanges[0].0 else { return false }
        var low = 0
        var high = wideRanges.count
        while low < high {
            let mid = (low + high) / 2
            if wideRanges[mid].1 < value { low = mid + 1 } else { high = mid }
        }
        return low < wideRanges.count && wideRanges[low].0 <= value
    }

    /// East Asian Width W and F ranges (Unicode 14 EastAsianWidth.txt, assigned code points,
    /// neighbouring ranges merged across unassigned gaps), sorted.
    private static let wideRanges: [(UInt32, UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC), (0x23F0, 0x23F0),
        (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
        (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728),
        (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
        (0x2E80, 0x303E), (0x3041, 0x3247), (0x3250, 0x4DBF), (0x4E00, 0xA4C6), (0xA960, 0xA97C),
        (0xAC00, 0xD7A3), (0xF900, 0xFAD9), (0xFE10, 0xFE19), (0xFE30, 0xFE6B), (0xFF01, 0xFF60),
        (0xFFE0, 0xFFE6), (0x16FE0, 0x1B2FB), (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF),
        (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F200, 0x1F320), (0x1F32D, 0x1F335),
        (0x1F337, 0x1F37C), (0x1F37E, 0x1F393), (0x1F3A0, 0x1F3CA), (0x1F3CF, 0x1F3D3),
        (0x1F3E0, 0x1F3F0), (0x1F3F4, 0x1F3F4), (0x1F3F8, 0x1F43E), (0x1F440, 0x1F440),
        (0x1F442, 0x1F4FC), (0x1F4FF, 0x1F53D), (0x1F54B, 0x1F54E), (0x1F550, 0x1F567),
        (0x1F57A, 0x1F57A), (0x1F595, 0x1F596), (0x1F5A4, 0x1F5A4), (0x1F5FB, 0x1F64F),
        (0x1F680, 0x1F6C5), (0x1F6CC, 0x1F6CC), (0x1F6D0, 0x1F6D2), (0x1F6D5, 0x1F6DF),
        (0x1F6EB, 0x1F6EC), (0x1F6F4, 0x1F6FC), (0x1F7E0, 0x1F7F0), (0x1F90C, 0x1F93A),
        (0x1F93C, 0x1F945), (0x1F947, 0x1F9FF), (0x1FA70, 0x1FAF6), (0x20000, 0x3FFFD),
    ]
}
