import OpsMonitor

extension JSONLineParser {
    /// Exact powers of ten: a double holds 10^0 through 10^22 without rounding.
    private static let powersOfTen: [Double] = (0...22).reduce(into: []) { powers, n in
        powers.append(n == 0 ? 1 : powers[n - 1] * 10)
    }

    /// Reads the number `index` points to: exact `Int64` when it has no fraction or exponent and
    /// fits, else a finite `Double`. Up to 18 digits with a small exponent are read arithmetically
    /// (a mantissa below 2^53 times or divided by an exact power of ten rounds once, as the text
    /// would); longer numbers go through the standard library's text conversion.
    mutating func number() throws(EventLineError) -> JSONValue {
        let start = index
        var integral = true
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw error("expected a digit") }
        var mantissa: UInt64 = 0
        var digitCount = 0
        if first == UInt8(ascii: "0") {
            index += 1
            digitCount = 1
        } else {
            digitCount = readDigits(into: &mantissa)
        }
        var exponent = 0
        if current == UInt8(ascii: ".") {
            integral = false
            index += 1
            let fractionDigits = readDigits(into: &mantissa)
            guard fractionDigits > 0 else { throw error("expected a digit") }
            digitCount += fractionDigits
            exponent = -fractionDigits
        }
        var smallExponent = true
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            index += 1
            let negativeExponent = current == UInt8(ascii: "-")
            if current == UInt8(ascii: "+") || negativeExponent { index += 1 }
            var written: UInt64 = 0
            let exponentDigits = readDigits(into: &written)
            guard exponentDigits > 0 else { throw error("expected a digit") }
            // More than 4 digits may have wrapped `written`: such numbers take the text route.
            smallExponent = exponentDigits <= 4
            if smallExponent { exponent += negativeExponent ? -Int(written) : Int(written) }
        }
        if digitCount <= 18, smallExponent {
            if integral {
                let magnitude = Int64(mantissa)
                return .int(negative ? -magnitude : magnitude)
            }
            if mantissa <= 1 << 53, (-22...22).contains(exponent) {
                let scaled =
                    exponent < 0
                    ? Double(mantissa) / Self.powersOfTen[-exponent] : Double(mantissa) * Self.powersOfTen[exponent]
                return .double(negative ? -scaled : scaled)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return .double(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Reads a run of digits onto `value` (wrapping: callers trust it only for 18 digits or fewer)
    /// and returns how many there were.
    private mutating func readDigits(into value: inout UInt64) -> Int {
        let start = index
        while index < bytes.count, Self.isDigit(bytes[index]) {
            value = value &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        return index - start
    }
}
