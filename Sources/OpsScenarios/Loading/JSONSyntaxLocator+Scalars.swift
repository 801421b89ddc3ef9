/// Strings (escapes, UTF-8) and numbers, strictly as RFC 8259 writes them.
extension JSONSyntaxLocator {
    private static let zero = UInt8(ascii: "0")
    private static let nine = UInt8(ascii: "9")

    /// A string: `"` … `"`, with valid escapes, valid UTF-8 and no control characters.
    mutating func string() throws {
        try expect(UInt8(ascii: "\""))
        while true {
            skipPlainText()
            guard let byte = current else { break }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0..<0x20:
                throw fail("control character in string")
            case 0x20..<0x80:
                index += 1
            default:
                guard let length = sequenceLength(at: index) else {
                    throw fail("invalid UTF-8 (byte 0x\(Self.hex(byte)))")
                }
                index += length
            }
        }
        throw fail("unterminated string")
    }

    /// Moves past printable ASCII other than `"` and `\` in one tight loop (most of a file).
    private mutating func skipPlainText() {
        var position = index
        let end = bytes.count
        while position < end {
            let byte = bytes[position]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            position += 1
        }
        index = position
    }

    /// One escape after a backslash; `\u` surrogates must come in pairs.
    private mutating func escape() throws {
        let begin = index
        index += 1
        guard let escaped = current else { throw unexpected() }
        guard escaped == UInt8(ascii: "u") else {
            let simple: [UInt8] = Array(#""\/bfnrt"#.utf8)
            guard simple.contains(escaped) else { throw fail("invalid escape in string", at: begin) }
            index += 1
            return
        }
        index += 1
        let unit = try hexUnit(escapeAt: begin)
        switch unit {
        case 0xD800...0xDBFF:
            let low = index
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("unpaired surrogate in \\u escape", at: begin)
            }
            index += 2
            guard (0xDC00...0xDFFF).contains(try hexUnit(escapeAt: low)) else {
                throw fail("unpaired surrogate in \\u escape", at: begin)
            }
        case 0xDC00...0xDFFF:
            throw fail("unpaired surrogate in \\u escape", at: begin)
        default:
            return
        }
    }

    /// The four hex digits of a `\u` escape starting at `escapeAt`.
    private mutating func hexUnit(escapeAt begin: Int) throws -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw fail("invalid \\u escape", at: begin)
            }
            unit = unit << 4 | UInt32(digit)
            index += 1
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `position` (lead byte ≥ 0x80), or nil.
    func sequenceLength(at position: Int) -> Int? {
        let lead = bytes[position]
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)  // no UTF-16 surrogates
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)  // nothing above U+10FFFF
        default: return nil
        }
        guard position + length <= bytes.count, second.contains(bytes[position + 1]) else { return nil }
        for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The scalar whose UTF-8 sequence starts at `position`, or nil when it is not well formed.
    func scalar(at position: Int) -> Unicode.Scalar? {
        guard let length = sequenceLength(at: position) else { return nil }
        return String(decoding: bytes[position..<(position + length)], as: UTF8.self).unicodeScalars.first
    }

    /// A number; the whole run of number-like characters is checked so the message can quote it.
    mutating func number() throws {
        let begin = index
        var end = index
        while end < bytes.count, Self.isNumberLike(bytes[end]) { end += 1 }
        let token = bytes[begin..<end]
        var text: String { String(decoding: token.prefix(24), as: UTF8.self) + (token.count > 24 ? "…" : "") }
        if let first = token.first, first >= 0x41 || token.count > 1 && token[begin + 1] >= 0x41 {
            if ["NaN", "Infinity", "-Infinity", "+Infinity", "-NaN"].contains(text) {
                throw fail("malformed number '\(text)' (JSON has no NaN or Infinity)")
            }
            if first >= 0x41 { throw unexpected() }  // a letter: not a number
        }
        if let problem = Self.grammarProblem(token) { throw fail("malformed number '\(text)' (\(problem))") }
        if let problem = Self.rangeProblem(token) { throw fail("number '\(text)' \(problem)") }
        index = end
    }

    private static func isNumberLike(_ byte: UInt8) -> Bool {
        switch byte {
        case zero...nine, UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    private static func isDigit(_ token: UnsafeBufferPointer<UInt8>.SubSequence, _ i: Int) -> Bool {
        i < token.endIndex && (zero...nine).contains(token[i])
    }

    /// Why `token` is not `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, or nil.
    private static func grammarProblem(_ token: UnsafeBufferPointer<UInt8>.SubSequence) -> String? {
        var i = token.startIndex
        if token[i] == UInt8(ascii: "+") { return "a leading '+' is not allowed" }
        if token[i] == UInt8(ascii: "-") { i += 1 }
        if i == token.endIndex { return "no digit after '-'" }
        if token[i] == UInt8(ascii: ".") { return "no digit before the decimal point" }
        guard isDigit(token, i) else { return "unexpected '\(Character(Unicode.Scalar(token[i])))'" }
        if token[i] == zero {
            i += 1
            if isDigit(token, i) { return "leading zero" }
        } else {
            while isDigit(token, i) { i += 1 }
        }
        if i < token.endIndex, token[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(token, i) else { return "no digit after the decimal point" }
            while isDigit(token, i) { i += 1 }
        }
        if i < token.endIndex, token[i] == UInt8(ascii: "e") || token[i] == UInt8(ascii: "E") {
            i += 1
            if i < token.endIndex, token[i] == UInt8(ascii: "+") || token[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(token, i) else { return "no digit in the exponent" }
            while isDigit(token, i) { i += 1 }
        }
        guard i == token.endIndex else { return "unexpected '\(Character(Unicode.Scalar(token[i])))'" }
        return nil
    }

    /// Numbers a 64-bit float cannot hold (Foundation's decoder refuses them without saying which).
    private static func rangeProblem(_ token: UnsafeBufferPointer<UInt8>.SubSequence) -> String? {
        guard token.count > 15 || token.contains(UInt8(ascii: "e")) || token.contains(UInt8(ascii: "E")) else {
            return nil
        }
        guard let value = Double(String(decoding: token, as: UTF8.self)) else { return nil }
        if value.isInfinite { return "is too large" }
        let mantissa = token.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        if value == 0, mantissa.contains(where: { (UInt8(ascii: "1")...nine).contains($0) }) {
            return "is too small (it would be 0)"
        }
        return nil
    }
}
