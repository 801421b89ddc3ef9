import Foundation

/// A strict JSON (RFC 8259) checker that finds where a text stops being JSON and why.
///
/// It runs before Foundation's decoder, which on Linux reports invalid JSON without a position
/// and accepts some texts that are not JSON (trailing commas, duplicate fields, unpaired
/// surrogate escapes). It reads the bytes in place: no copy of the file.
struct JSONSyntaxLocator {
    /// Where and why the text stops being JSON.
    struct Failure: Error, Equatable {
        /// 1-based line, 0 when the problem is the whole file.
        var line: Int
        /// 1-based column in characters.
        var column: Int
        var reason: String

        /// `not valid JSON at line 3, column 13: unexpected character '2'`.
        var message: String {
            line == 0 ? "not valid JSON: \(reason)" : "not valid JSON at line \(line), column \(column): \(reason)"
        }
    }

    /// What the top-level value of a valid text is.
    enum ValueKind: Equatable {
        case object, array, string, number, boolean, null

        /// `an object`, `null`, … for messages.
        var noun: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .boolean: "true or false"
            case .null: "null"
            }
        }
    }

    /// Deepest nesting of arrays and objects accepted.
    static let maxDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the text starts (after a UTF-8 byte-order mark, which RFC 8259 lets a parser ignore).
    let start: Int
    var index: Int
    /// Per nesting depth, the fields of the object being read.
    private var fields: [FieldNames] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        start = bytes.starts(with: bom) ? 3 : 0
        index = start
    }

    /// The kind of the top-level value of `data`, or the first reason it is not strict JSON.
    static func check(_ data: Data) -> Result<ValueKind, Failure> {
        data.withUnsafeBytes { raw in check(raw.bindMemory(to: UInt8.self)) }
    }

    /// The kind of the top-level value of `bytes`, or the first reason they are not strict JSON.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ValueKind, Failure> {
        if bytes.isEmpty { return .failure(Failure(line: 0, column: 0, reason: "the file is empty")) }
        if let encoding = wideEncoding(bytes) {
            return .failure(Failure(line: 0, column: 0, reason: "the file is \(encoding); save it as UTF-8"))
        }
        var parser = JSONSyntaxLocator(bytes)
        do {
            parser.skipSpace()
            let kind = try parser.value(depth: 0)
            parser.skipSpace()
            if parser.current != nil { throw parser.fail("unexpected text after the end") }
            return .success(kind)
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(line: 0, column: 0, reason: "\(error)"))
        }
    }

    /// `UTF-16` or `UTF-32` when a byte-order mark or the zero bytes of ASCII text say so.
    private static func wideEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return "UTF-32"
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0, bytes[0] != bytes[1] { return "UTF-16" }
        return nil
    }

    /// A failure at the current position.
    func fail(_ reason: String) -> Failure { fail(reason, at: index) }

    /// A failure at byte `position`, with its line and column (columns count characters).
    func fail(_ reason: String, at position: Int) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[start..<min(max(position, start), bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return Failure(line: line, column: column, reason: reason)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The failure for whatever stands at the current position.
    func unexpected() -> Failure {
        guard let byte = current else { return fail("unexpected end of file") }
        if byte == UInt8(ascii: "/"), index + 1 < bytes.count,
            bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*")
        {
            return fail("comments are not allowed in JSON")
        }
        if byte >= 0x20 && byte < 0x7F {
            return fail("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
        if byte < 0x80 { return fail("unexpected byte 0x\(Self.hex(byte))") }
        guard let scalar = scalar(at: index) else { return fail("invalid UTF-8 (byte 0x\(Self.hex(byte)))") }
        return fail("unexpected character '\(Character(scalar))'")
    }

    /// `0A`, `FF`: a byte in two upper-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + text : text
    }

    mutating func skipSpace() {
        while let byte = current,
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            index += 1
        }
    }

    mutating func expect(_ char: UInt8) throws {
        guard current == char else { throw unexpected() }
        index += 1
    }

    private mutating func value(depth: Int) throws -> ValueKind {
        guard depth < Self.maxDepth else { throw fail("nested too deeply (more than \(Self.maxDepth) levels)") }
        guard let byte = current else { throw unexpected() }
        switch byte {
        case UInt8(ascii: "{"):
            try object(depth: depth)
            return .object
        case UInt8(ascii: "["):
            try array(depth: depth)
            return .array
        case UInt8(ascii: "\""):
            try string()
            return .string
        case UInt8(ascii: "t"):
            try literal("true")
            return .boolean
        case UInt8(ascii: "f"):
            try literal("false")
            return .boolean
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "N"), UInt8(ascii: "I"):
            try number()
            return .number
        default:
            throw unexpected()
        }
    }

    private mutating func literal(_ word: String) throws {
        for char in word.utf8 { try expect(char) }
    }

    private mutating func object(depth: Int) throws {
        try expect(UInt8(ascii: "{"))
        if fields.count <= depth {
            fields.append(contentsOf: repeatElement(FieldNames(), count: depth + 1 - fields.count))
        }
        fields[depth].removeAll()
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipSpace()
            try key(depth: depth)
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            _ = try value(depth: depth + 1)
            skipSpace()
            guard current == UInt8(ascii: ",") else {
                try expect(UInt8(ascii: "}"))
                return
            }
            let comma = index
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") { throw fail("trailing comma before '}'", at: comma) }
        }
    }

    /// A field name: a string, not yet used in this object.
    private mutating func key(depth: Int) throws {
        guard current == UInt8(ascii: "\"") else {
            let quoteOrLetter = current.map {
                $0 == UInt8(ascii: "'") || ($0 < 0x80 && Character(Unicode.Scalar($0)).isLetter)
            }
            if quoteOrLetter == true { throw fail("field names must be strings in double quotes") }
            throw unexpected()
        }
        let begin = index
        try string()
        let name = (begin + 1)..<(index - 1)
        if !fields[depth].insert(name, in: bytes) {
            let text = String(decoding: bytes[name], as: UTF8.self)
            throw fail("duplicate field \"\(text)\"", at: begin)
        }
    }

    private mutating func array(depth: Int) throws {
        try expect(UInt8(ascii: "["))
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipSpace()
            _ = try value(depth: depth + 1)
            skipSpace()
            guard current == UInt8(ascii: ",") else {
                try expect(UInt8(ascii: "]"))
                return
            }
            let comma = index
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") { throw fail("trailing comma before ']'", at: comma) }
        }
    }
}
