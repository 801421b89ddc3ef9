import OpsKit
import OpsMonitor

/// Appends the pieces of JSON Lines as UTF-8 bytes: ASCII literals, decimal integers (digits
/// written in place, nothing allocated), times as `seconds.mmm` and escaped JSON strings. The
/// one implementation behind `JSONLinesEncoder`'s byte and String output.
package enum JSONBytes {
    /// Appends `literal`'s UTF-8 bytes.
    @inline(__always)
    package static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text`'s UTF-8 bytes (no escaping: for enum raw values and other known ASCII).
    @inline(__always)
    package static func append(raw text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `true` or `false`.
    @inline(__always)
    package static func append(_ value: Bool, to bytes: inout [UInt8]) {
        append(value ? "true" : "false", to: &bytes)
    }

    /// Appends `value` in decimal.
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = digits.count
            var rest = value
            repeat {
                index -= 1
                digits[index] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    /// Appends `value` in decimal.
    @inline(__always)
    package static func append(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        append(value.magnitude, to: &bytes)
    }

    /// Appends `value` in decimal.
    @inline(__always)
    package static func append(_ value: Int, to bytes: inout [UInt8]) {
        append(Int64(value), to: &bytes)
    }

    /// `values` as a JSON array of numbers: `[1,2,3]`.
    package static func append(_ values: [Int], to bytes: inout [UInt8]) {
        bytes.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            append(value, to: &bytes)
        }
        bytes.append(0x5D)
    }

    /// Appends seconds with millisecond precision, e.g. `12.345`.
    package static func appendTime(_ time: Duration, to bytes: inout [UInt8]) {
        let millis = max(0, Int64((time.seconds * 1000).rounded()))
        let fraction = Int(millis % 1000)
        append(millis / 1000, to: &bytes)
        bytes.append(0x2E)
        bytes.append(0x30 &+ UInt8(truncatingIfNeeded: fraction / 100))
        bytes.append(0x30 &+ UInt8(truncatingIfNeeded: fraction / 10 % 10))
        bytes.append(0x30 &+ UInt8(truncatingIfNeeded: fraction % 10))
    }

    /// Ends a line whose closing `}\n` was taken off with its number: `,"seq":N}\n` (how the
    /// publisher and recordings number the encoder's lines).
    package static func appendSeq(_ seq: UInt64, to bytes: inout [UInt8]) {
        append(#","seq":"#, to: &bytes)
        append(seq, to: &bytes)
        append("}\n", to: &bytes)
    }

    /// Appends a JSON string literal with the required escapes; DEL, C1 and bidi controls are
    /// also written as `\uXXXX` (same value once decoded), so a name cannot drive a terminal.
    package static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(0x22)
        // Plain printable ASCII (most names) needs no escape: appended whole.
        let plain =
            text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard isPlain(utf8) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !plain { appendEscaped(text, to: &bytes) }
        bytes.append(0x22)
    }

    /// Whether `text` is printable ASCII without quotes or backslashes (appended as is).
    @inline(__always)
    static func isPlain<Bytes: Sequence<UInt8>>(_ text: Bytes) -> Bool {
        text.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
    }

    private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": append(#"\""#, to: &bytes)
            case "\\": append(#"\\"#, to: &bytes)
            case "\n": append(#"\n"#, to: &bytes)
            case "\r": append(#"\r"#, to: &bytes)
            case "\t": append(#"\t"#, to: &bytes)
            case _ where ControlCharacterEscaping.needsEscape(scalar):
                // Every scalar that needs it is at most U+FFFF: four lowercase hex digits.
                append(#"\u"#, to: &bytes)
                for shift in stride(from: 12, through: 0, by: -4) {
                    let digit = UInt8(truncatingIfNeeded: (scalar.value >> UInt32(shift)) & 0xF)
                    bytes.append(digit < 10 ? 0x30 &+ digit : 0x57 &+ digit)
                }
            default:
                if scalar.isASCII {
                    bytes.append(UInt8(truncatingIfNeeded: scalar.value))
                } else {
                    UTF8.encode(scalar) { bytes.append($0) }
                }
            }
        }
    }
}
