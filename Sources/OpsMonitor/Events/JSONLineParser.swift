/// A strict JSON parser for one line of UTF-8: bounded nesting, exact integers, precise errors
/// ("invalid JSON at byte 12: expected ':'"). Used for event lines, protocol lines and commands.
public struct JSONLineParser {
    /// Deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses `bytes` as exactly one JSON value (whitespace around it allowed).
    public static func parse(_ bytes: some Collection<UInt8>) throws(EventLineError) -> JSONValue {
        var parser = JSONLineParser(Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the value") }
        return value
    }

    private func error(_ reason: String) -> EventLineError {
        EventLineError(.badLine, "invalid JSON at byte \(index + 1): \(reason)")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(EventLineError) {
        guard current == byte else { throw error("expected \(what)") }
        index += 1
    }

    private mutating func value() throws(EventLineError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of line") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(EventLineError) {
        let text = word.withUTF8Buffer { Array($0) }
        guard bytes.count - index >= text.count, Array(bytes[index..<index + text.count]) == text else {
            throw error("unexpected character")
        }
        index += text.count
    }

    private mutating func nest() throws(EventLineError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth)") }
    }

    private mutating func object() throws(EventLineError) -> JSONValue {
        try nest()
        index += 1
        var result: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(result)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a field name") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            result[key] = try value()
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            depth -= 1
            return .object(result)
        }
    }

    private mutating func array() throws(EventLineError) -> JSONValue {
        try nest()
        index += 1
        var result: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(result)
        }
        while true {
            skipWhitespace()
            result.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            depth -= 1
            return .array(result)
        }
    }

    private mutating func string() throws(EventLineError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
            guard !run.isEmpty else { return true }
            guard let text = String(validating: run, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            return true
        }
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                guard flush(&run, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard flush(&run, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                scalars.append(try escape())
            case 0..<0x20:
                throw error("control character in string")
            default:
                run.append(byte)
                index += 1
            }
        }
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

    private mutating func number() throws(EventLineError) -> JSONValue {
        let start = index
        var integral = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard try digitsFollow() else { throw error("expected a digit") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try digitsFollow() else { throw error("expected a digit") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }

    private mutating func skipDigits() {
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    }

    private mutating func digitsFollow() throws(EventLineError) -> Bool {
        let start = index
        skipDigits()
        return index > start
    }
}
