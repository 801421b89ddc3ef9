/// A minimal JSON syntax checker that finds where invalid JSON goes wrong, because Foundation's
/// decoder on Linux reports only "not valid JSON" with no position.
struct JSONSyntaxLocator {
    /// Where and why the text stops being JSON.
    struct Failure: Error, Equatable {
        var line: Int
        var column: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The first syntax error in `bytes`, or nil when they are valid JSON.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var parser = JSONSyntaxLocator(bytes)
        do {
            parser.skipSpace()
            try parser.value(depth: 0)
            parser.skipSpace()
            if parser.index < bytes.count { throw parser.fail("unexpected text after the end") }
            return nil
        } catch let failure as Failure {
            return failure
        } catch {
            return nil
        }
    }

    private func fail(_ reason: String) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return Failure(line: line, column: column, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func unexpected() -> Failure {
        guard let byte = current else { return fail("unexpected end of file") }
        if byte >= 0x20 && byte < 0x7F {
            return fail("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
        return fail("unexpected byte 0x\(String(byte, radix: 16))")
    }

    private mutating func skipSpace() {
        while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
    }

    private mutating func expect(_ char: Character) throws {
        guard let ascii = char.asciiValue, current == ascii else { throw unexpected() }
        index += 1
    }

    private mutating func value(depth: Int) throws {
        guard depth < 512 else { throw fail("nested too deeply") }
        guard let byte = current else { throw unexpected() }
        switch byte {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw unexpected()
        }
    }

    private mutating func literal(_ word: String) throws {
        for char in word { try expect(char) }
    }

    private mutating func object(depth: Int) throws {
        try expect("{")
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw unexpected() }
            try string()
            skipSpace()
            try expect(":")
            skipSpace()
            try value(depth: depth + 1)
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else {
                try expect("}")
                return
            }
        }
    }

    private mutating func array(depth: Int) throws {
        try expect("[")
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipSpace()
            try value(depth: depth + 1)
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else {
                try expect("]")
                return
            }
        }
    }

    private mutating func string() throws {
        try expect("\"")
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { throw unexpected() }
                if escaped == UInt8(ascii: "u") {
                    index += 1
                    for _ in 0..<4 {
                        guard let hex = current, Character(Unicode.Scalar(hex)).isHexDigit else {
                            throw fail("invalid \\u escape")
                        }
                        index += 1
                    }
                } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                    index += 1
                } else {
                    throw fail("invalid escape in string")
                }
            case 0..<0x20:
                throw fail("control character in string")
            default:
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func digits() throws {
        guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw unexpected()
        }
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    }

    private mutating func number() throws {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") { index += 1 } else { try digits() }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }
}
