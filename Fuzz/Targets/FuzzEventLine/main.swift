// Event lines (the JSON Lines that `attach` and `replay` read): JSONLineParser and
// JSONLinesDecoder. A line either decodes or throws an EventLineError; a decoded monitor
// event written back by JSONLinesEncoder decodes to itself; a parsed JSON value written
// back parses to itself.
import FuzzSupport
import OpsMonitor
import OpsWire

fuzz { input in
    let bytes = Array(input)
    if let value = try? JSONLineParser.parse(bytes) {
        let text = Array(serialize(value).utf8)
        let reparsed = try? JSONLineParser.parse(text)
        check(reparsed == value, "JSON value round trip: \(String(decoding: text, as: UTF8.self))")
    }
    let decoder = JSONLinesDecoder()
    guard let decoded = try? decoder.decode(bytes: bytes), case .event(let event) = decoded.line else { return }
    // The encoder may round (times to its precision): from its output on, the trip is exact.
    guard let once = decodeEvent(encode(event)) else { return }
    let encoded = encode(once)
    check(decodeEvent(encoded) == once, "event round trip: \(String(decoding: encoded, as: UTF8.self))")
}

func encode(_ event: MonitorEvent) -> [UInt8] {
    var encoder = JSONLinesEncoder(progressInterval: .zero)
    var bytes: [UInt8] = []
    encoder.encode(event, into: &bytes)
    return bytes
}

func decodeEvent(_ bytes: [UInt8]) -> MonitorEvent? {
    guard let decoded = try? JSONLinesDecoder().decode(bytes: bytes), case .event(let event) = decoded.line else {
        check(false, "encoder output not read back: \(String(decoding: bytes, as: UTF8.self))")
        return nil
    }
    return event
}

/// Plain JSON text for `value` (Swift's shortest round-tripping form for doubles).
func serialize(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .int(let number): "\(number)"
    case .double(let number): "\(number)"
    case .string(let text): quote(text)
    case .array(let items): "[" + items.map(serialize).joined(separator: ",") + "]"
    case .object(let members):
        "{" + members.map { quote($0.key) + ":" + serialize($0.value) }.joined(separator: ",") + "}"
    }
}

func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20:
            out +=
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
