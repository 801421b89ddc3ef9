import Testing

@testable import OpsMonitor
@testable import OpsWire

/// Numbers read in place must equal what the standard library reads from the same text.
@Suite struct JSONLineParserNumberTests {
    private func number(_ text: String) throws(EventLineError) -> JSONValue {
        try JSONLineParser.parse(Array(text.utf8))
    }

    @Test func integersStayExact() throws {
        #expect(try number("0") == .int(0))
        #expect(try number("-0") == .int(0))
        #expect(try number("42") == .int(42))
        #expect(try number("999999999999999999") == .int(999_999_999_999_999_999))
        #expect(try number("9223372036854775807") == .int(.max))
        #expect(try number("-9223372036854775808") == .int(.min))
        #expect(try number("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try number("[1,-2,30]") == .array([.int(1), .int(-2), .int(30)]))
    }

    @Test func fractionsAndExponentsMatchTheStandardLibrary() throws {
        let texts = [
            "0.1", "-0.0", "1.5", "3333333.3", "0.000000001", "1.000000001", "86399.999999999", "123456789.123456789",
            "9007199254740993.0", "0.30000000000000004", "1e22", "1e23", "1E-2", "2.5E+3", "-7.25e-3", "5e-324",
            "1.7976931348623157e308", "2.2250738585072014e-308", "1e-400", "0e00000", "1e-99999999999999999999",
            "12345678901234567890.5",
        ]
        for text in texts { try expectSame(text) }
        // Seeded, so that a failure reproduces: decimals with 1 to 20 digits and small exponents.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for _ in 0..<5_000 {
            let whole = String(next(1 << 31) * (next(2) == 0 ? 1 : next(1 << 31)))
            let fraction = String(repeating: "0", count: Int(next(4))) + String(next(1 << 40))
            var text = "\(next(4) == 0 ? "-" : "")\(whole).\(fraction)"
            if next(3) == 0 { text += "e\(Int(next(60)) - 30)" }
            try expectSame(text)
        }
    }

    private func expectSame(_ text: String) throws {
        guard let expected = Double(text) else {
            Issue.record("the standard library does not read \(text)")
            return
        }
        let value = try number(text)
        #expect(value.doubleValue?.bitPattern == expected.bitPattern, "\(text)")
    }

    @Test func malformedAndOutOfRangeNumbers() {
        let cases: [(String, String)] = [
            ("-", "invalid JSON at byte 2: expected a digit"),
            ("1.", "invalid JSON at byte 3: expected a digit"),
            ("1.e5", "invalid JSON at byte 3: expected a digit"),
            ("1e", "invalid JSON at byte 3: expected a digit"),
            ("1e+", "invalid JSON at byte 4: expected a digit"),
            ("01", "invalid JSON at byte 2: unexpected text after the value"),
            ("1e400", "invalid JSON at byte 6: number out of range"),
            ("-1e99999", "invalid JSON at byte 9: number out of range"),
            ("1e99999999999999999999", "invalid JSON at byte 23: number out of range"),
            ("tru", "invalid JSON at byte 1: unexpected character"),
            ("nulll", "invalid JSON at byte 5: unexpected text after the value"),
        ]
        for (text, message) in cases {
            #expect(throws: EventLineError(.badLine, message), "\(text)") { try number(text) }
        }
    }
}
