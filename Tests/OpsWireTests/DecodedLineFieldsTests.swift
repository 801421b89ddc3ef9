import Testing

@testable import OpsMonitor
@testable import OpsWire

/// A decoded line keeps its fields in line order and looks them up without a dictionary; what
/// it reads must be what a dictionary of the same object holds.
@Suite struct DecodedLineFieldsTests {
    private let decoder = JSONLinesDecoder()

    @Test func aRepeatedFieldReadsItsLastValue() throws {
        let line = try decoder.decode(#"{"event":"state","seq":1,"event":"x","seq":2}"#)
        #expect(line.line == .other(event: "x"))
        #expect(line.seq == 2)
        #expect(line.fields == ["event": .string("x"), "seq": .int(2)])
        let state = try decoder.decode(#"{"t":1,"event":"state","id":1,"to":"waiting","id":7,"to":"ready"}"#)
        #expect(
            state.line == .event(.state(time: .seconds(1), id: 7, from: nil, to: .ready, outcome: nil, message: nil)))
    }

    @Test func fieldsHoldUnknownAndNestedValues() throws {
        let line = try decoder.decode(#"{"event":"welcome","app":"下载","n":[1,{"a":null,"a":true}],"o":{}}"#)
        #expect(
            line.fields == [
                "event": .string("welcome"), "app": .string("下载"),
                "n": .array([.int(1), .object(["a": .bool(true)])]), "o": .object([:]),
            ])
        var copy = line
        copy.fields["app"] = .string("other")
        #expect(copy != line)
        #expect(copy.fields["app"] == .string("other"))
        #expect(DecodedLine(line: line.line, seq: nil, fields: line.fields) == line)
    }

    @Test func aLineWithManyFieldsStillFindsThem() throws {
        let count = FieldList.scanLimit * 4
        let padding = (0..<count).map { #""f\#($0)":\#($0)"# }.joined(separator: ",")
        let line = try decoder.decode(#"{"seq":1,\#(padding),"event":"x","seq":5,"f3":"last"}"#)
        #expect(line.line == .other(event: "x"))
        #expect(line.seq == 5)
        #expect(line.fields.count == count + 2)
        #expect(line.fields["f3"] == .string("last"))
        #expect(line.fields["f\(count - 1)"] == .int(Int64(count - 1)))
    }

    @Test func nonObjectsAndTrailingTextKeepTheirMessages() {
        let cases: [(String, String)] = [
            ("[1,2]", "line is not a JSON object"),
            ("\"text\"", "line is not a JSON object"),
            ("[1,2] x", "invalid JSON at byte 7: unexpected text after the value"),
            ("{} {", "invalid JSON at byte 4: unexpected text after the value"),
            ("{}", "line has no \"event\" string"),
            ("  {\"event\":1}  ", "line has no \"event\" string"),
            ("[1,", "invalid JSON at byte 4: unexpected end of line"),
        ]
        for (line, message) in cases {
            #expect(throws: EventLineError(.badLine, message), "\(line)") { try decoder.decode(line) }
        }
    }
}
