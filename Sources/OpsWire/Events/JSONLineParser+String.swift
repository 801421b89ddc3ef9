import OpsMonitor

extension JSONLineParser {
    /// Reads the string starting at the opening quote `index` points to. A string without
    /// backslashes becomes a `String` straight from its bytes; escapes are decoded run by run.
    /// Each run of plain bytes is checked as UTF-8 where it ends (at a backslash or the closing
    /// quote), and a control character or the end of the line stops the scan where it is.
    mutating func string() throws(EventLineError) -> String {
        index += 1
        var start = index
        var bits: UInt8 = 0
        var stop = try scanPlain(&bits)
        var text = try plainRun(from: start, ascii: bits < 0x80)
        while stop == UInt8(ascii: "\\") {
            index += 1
            text.unicodeScalars.append(try escape())
            start = index
            bits = 0
            stop = try scanPlain(&bits)
            text += try plainRun(from: start, ascii: bits < 0x80)
        }
        index += 1
        return text
    }

    /// Moves `index` to the next quote or backslash and returns it, or-ing the bytes it passes
    /// into `bits`; throws at a control character or the end of the line.
    private mutating func scanPlain(_ bits: inout UInt8) throws(EventLineError) -> UInt8 {
        while index < bytes.count {
            let byte = bytes[index]
            bits |= byte
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return byte }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        throw error("unterminated string")
    }

    /// The bytes from `start` up to `index` as text, if they are valid UTF-8. Decoding repairs
    /// invalid UTF-8, so text that is not all ASCII is valid exactly when it reads back as the
    /// same bytes.
    private func plainRun(from start: Int, ascii: Bool) throws(EventLineError) -> String {
        if start == index { return "" }
        let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
        var text = String(decoding: run, as: UTF8.self)
        if !ascii {
            guard text.withUTF8({ $0.elementsEqual(run) }) else { throw error("string is not valid UTF-8") }
        }
        return text
    }

    private mutating func escape() throws(EventLineError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\") else { throw error("unpaired surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw error("unpaired surrogate") }
                index += 1
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw error("unpaired surrogate") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
            return scalar
        default:
            throw error("unknown escape")
        }
    }

    private mutating func hex4() throws(EventLineError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("bad \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
