import OpsMonitor

/// A strict JSON parser for one line of UTF-8: bounded nesting, exact integers, precise errors
/// ("invalid JSON at byte 12: expected ':'"). Used for event lines, protocol lines and commands.
///
/// It reads the line in place: a string without escapes becomes a `String` straight from its
/// bytes, and numbers are read without building text first.
public struct JSONLineParser {
    /// One field of an object: its name and value.
    typealias JSONMember = (key: String, value: JSONValue)

    /// Deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 32

    /// The line, valid only during `parse(buffer:)`; every read goes through `current` or an
    /// index below `bytes.count`.
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `bytes` as exactly one JSON value (whitespace around it allowed).
    public static func parse(_ bytes: some Collection<UInt8>) throws(EventLineError) -> JSONValue {
        let result =
            bytes.withContiguousStorageIfAvailable { buffer in Self.result(buffer) }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in Self.result(buffer) }
        return try result.get()
    }

    /// Parses the bytes of `buffer` as exactly one JSON value (whitespace around it allowed).
    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> JSONValue {
        var parser = JSONLineParser(buffer)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the value") }
        return value
    }

    /// Parses the bytes of `buffer` as exactly one JSON value; its fields in line order if it is
    /// an object, nil if it is another value. Reading a line's fields this way skips hashing them
    /// into a dictionary.
    static func parseMembers(buffer: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> [JSONMember]? {
        var parser = JSONLineParser(buffer)
        parser.skipWhitespace()
        var members: [JSONMember]?
        if parser.current == UInt8(ascii: "{") {
            members = try parser.members()
        } else {
            _ = try parser.value()
        }
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw parser.error("unexpected text after the value") }
        return members
    }

    private static func result(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, EventLineError> {
        do { return .success(try parse(buffer: buffer)) } catch { return .failure(error) }
    }

    func error(_ reason: String) -> EventLineError {
        EventLineError(.badLine, "invalid JSON at byte \(index + 1): \(reason)")
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

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
        let matches = word.withUTF8Buffer { text in
            bytes.count - index >= text.count && text.indices.allSatisfy { bytes[index + $0] == text[$0] }
        }
        guard matches else { throw error("unexpected character") }
        index += word.utf8CodeUnitCount
    }

    private mutating func nest() throws(EventLineError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth)") }
    }

    private mutating func object() throws(EventLineError) -> JSONValue {
        // Filled by hand: `Dictionary(members, uniquingKeysWith:)` takes unlabeled pairs, and
        // converting the labeled members casts each one dynamically (most of a viewer's
        // decoding time for a keyframe's `history` objects). A repeated name keeps the last.
        let members = try members()
        var fields: [String: JSONValue] = [:]
        fields.reserveCapacity(members.count)
        for member in members { fields[member.key] = member.value }
        return .object(fields)
    }

    /// The fields of the object `index` points to, in line order (a repeated name appears twice).
    private mutating func members() throws(EventLineError) -> [JSONMember] {
        try nest()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return []
        }
        var result: [JSONMember] = []
        result.reserveCapacity(12)
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a field name") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            skipWhitespace()
            result.append((key, try value()))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            depth -= 1
            return result
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
}
