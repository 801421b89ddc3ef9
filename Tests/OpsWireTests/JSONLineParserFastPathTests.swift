import Testing

@testable import OpsMonitor
@testable import OpsWire

/// The in-place reading of strings and numbers: plain strings straight from their bytes, escapes
/// run by run, UTF-8 checked where each run ends, numbers read arithmetically where exact.
@Suite struct JSONLineParserFastPathTests {
    private func parse(_ bytes: [UInt8]) throws(EventLineError) -> JSONValue {
        try JSONLineParser.parse(bytes)
    }

    private func parse(_ text: String) throws(EventLineError) -> JSONValue {
        try JSONLineParser.parse(Array(text.utf8))
    }

    private func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONLineParser.parse(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func plainStringsKeepEveryScalar() throws {
        let names = ["", "a", "café ✓", "下载-文件-三.bin", "📦 box", "ünïcödé/ИМЯ/名前", String(repeating: "ß", count: 300)]
        for name in names {
            #expect(try parse("\"\(name)\"") == .string(name), "\(name)")
            let object = try parse(#"{"op":"\#(name)","\#(name)":1}"#)
            #expect(object == .object(["op": .string(name), name: .int(1)]), "\(name)")
        }
    }

    @Test func escapesAfterLongPlainRuns() throws {
        let run = String(repeating: "x", count: 1_000)
        #expect(try parse(#""\#(run)\n\#(run)""#) == .string(run + "\n" + run))
        #expect(try parse(#""名前\t\"quoted\"\\\u00e9\ud83d\udce6end""#) == .string("名前\t\"quoted\"\\é📦end"))
        #expect(try parse(#""\n""#) == .string("\n"))
        #expect(try parse(#""\\\\""#) == .string("\\\\"))
        #expect(try parse(#"["a\/b","",""]"#) == .array([.string("a/b"), .string(""), .string("")]))
    }

    @Test func stringsEndingWithTheLine() {
        #expect(message(Array(#""abc"#.utf8)) == "invalid JSON at byte 5: unterminated string")
        #expect(message(Array(#"{"op":"下载"#.utf8)) == "invalid JSON at byte 14: unterminated string")
        #expect(message(Array(#""abc\n"#.utf8)) == "invalid JSON at byte 7: unterminated string")
        #expect(message(Array(#""abc\"#.utf8)) == "invalid JSON at byte 6: unterminated escape")
        #expect(message(Array(#"""#.utf8)) == "invalid JSON at byte 2: unterminated string")
        #expect(message(Array(#"{""#.utf8)) == "invalid JSON at byte 3: unterminated string")
    }

    @Test func invalidUTF8IsRejectedWhereItsRunEnds() {
        let quote = UInt8(ascii: "\"")
        let plain = Array("plain".utf8)
        // Unescaped: reported at the closing quote, whatever the bad bytes are.
        for bad: [UInt8] in [[0xC3, 0x28], [0xE4, 0xB8], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0x80]] {
            let bytes = [quote] + plain + bad + plain + [quote]
            #expect(
                message(bytes) == "invalid JSON at byte \(bytes.count): string is not valid UTF-8", "\(bad)")
        }
        // Before an escape: reported at the backslash; after one: at the closing quote.
        #expect(message([quote, 0xC3, 0x5C, 0x6E, quote]) == "invalid JSON at byte 3: string is not valid UTF-8")
        #expect(message([quote, 0x5C, 0x6E, 0xC3, quote]) == "invalid JSON at byte 5: string is not valid UTF-8")
        // Without a closing quote the line ends first; a control character stops the scan first.
        #expect(message([quote, 0xC3, 0x28]) == "invalid JSON at byte 4: unterminated string")
        #expect(message([quote, 0xC3, 0x28, 0x01, quote]) == "invalid JSON at byte 4: control character in string")
        // In a field name, too.
        #expect(
            message([0x7B, quote, 0xFE, quote, 0x3A, 0x31, 0x7D]) == "invalid JSON at byte 4: string is not valid UTF-8"
        )
    }

    @Test func controlCharactersAfterPlainText() throws {
        #expect(message(Array("\"名前\u{7}\"".utf8)) == "invalid JSON at byte 8: control character in string")
        #expect(message(Array("\"a\\n\tb\"".utf8)) == "invalid JSON at byte 5: control character in string")
        #expect(try parse("\"del\u{7F}\"") == .string("del\u{7F}"))
    }

    @Test func readsContiguousAndOtherCollections() throws {
        let line = #"{"op":"下载","seq":3}"#
        let expected = JSONValue.object(["op": .string("下载"), "seq": .int(3)])
        #expect(try JSONLineParser.parse(AnyCollection(Array(line.utf8))) == expected)
        #expect(try JSONLineParser.parse(line.utf8) == expected)
        #expect(try JSONLineParser.parse(Array(" \(line) ".utf8).dropFirst().dropLast()) == expected)
        let decoded = try JSONLinesDecoder().decode(
            bytes: AnyCollection(Array((line.dropLast() + #","event":"x"}"#).utf8)))
        #expect(decoded.seq == 3 && decoded.fields["op"] == .string("下载"))
    }

    @Test func duplicateFieldsKeepTheLastValue() throws {
        #expect(try parse(#"{"a":1,"a":"two","b":[]}"#) == .object(["a": .string("two"), "b": .array([])]))
    }
}
