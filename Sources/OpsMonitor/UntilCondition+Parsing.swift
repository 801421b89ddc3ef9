extension UntilCondition {
    /// The longest text `parseList(_:)` reads, in UTF-8 bytes.
    public static let maxTextLength = 1024
    /// The most conditions one text lists.
    public static let maxConditions = 16
    /// The largest number a count is compared with.
    public static let maxLimit = 1_000_000_000
    /// The longest stall, in seconds (one day).
    public static let maxStallSeconds = 86_400

    /// The conditions of a comma list, any of which ends the run:
    ///
    ///     list       = condition *( "," condition )
    ///     condition  = count comparison number / "stalled" ( ">" / ">=" ) duration
    ///     count      = "waiting" / "ready" / "running" / "succeeded" / "failed" / "cancelled"
    ///                  / "finished" / "unfinished" / "total"
    ///     comparison = ">" / ">=" / "<" / "<=" / "=="
    ///     number     = 1*DIGIT            ; 0...1000000000
    ///     duration   = 1*DIGIT ( "s" / "m" )  ; 1 s ... 1 day
    ///
    /// Spaces may surround every token; nothing else is allowed (names are lower case).
    public static func parseList(_ text: String) throws(UntilConditionError) -> [UntilCondition] {
        let length = text.utf8.count
        guard length <= maxTextLength else {
            throw UntilConditionError("condition is too long (\(length) bytes, at most \(maxTextLength))")
        }
        let pieces = text.split(separator: ",", omittingEmptySubsequences: false)
        guard pieces.count <= maxConditions else {
            throw UntilConditionError("too many conditions (\(pieces.count), at most \(maxConditions))")
        }
        var conditions: [UntilCondition] = []
        for piece in pieces {
            let trimmed = piece.trimmingSpaces
            guard !trimmed.isEmpty else {
                throw UntilConditionError("empty condition in \(UntilConditionError.quoted(Substring(text)))")
            }
            conditions.append(try parseOne(trimmed))
        }
        return conditions
    }

    /// One condition (no comma), spaces around it already trimmed.
    static func parseOne(_ text: Substring) throws(UntilConditionError) -> UntilCondition {
        let quoted = UntilConditionError.quoted(text)
        let name = text.prefix { $0.isASCII && $0.isLetter }
        var rest = text[name.endIndex...].drop { $0 == " " }
        let isStall = name == "stalled"
        guard isStall || UntilCount(rawValue: String(name)) != nil else {
            let known = UntilCount.allCases.map(\.rawValue).joined(separator: ", ")
            let what = name.isEmpty ? "no count name" : "unknown count \(UntilConditionError.quoted(name))"
            throw UntilConditionError("\(what) in \(quoted) (one of: \(known), stalled)")
        }
        let symbol = rest.prefix { "<>=!".contains($0) }
        guard let comparison = UntilComparison(rawValue: String(symbol)) else {
            let found = rest.isEmpty ? "nothing" : UntilConditionError.quoted(symbol.isEmpty ? rest : symbol)
            throw UntilConditionError("expected >, >=, <, <= or == after '\(name)' in \(quoted), found \(found)")
        }
        rest = rest[symbol.endIndex...].drop { $0 == " " }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let tail = rest[digits.endIndex...]
        if isStall {
            guard comparison == .greater || comparison == .greaterOrEqual else {
                throw UntilConditionError(
                    "stalled takes > or >=, not \(UntilConditionError.quoted(symbol)), in \(quoted)")
            }
            let seconds = try stallSeconds(digits, unit: tail, in: quoted)
            return .stalled(seconds: seconds, orEqual: comparison == .greaterOrEqual)
        }
        guard !digits.isEmpty else {
            throw UntilConditionError("expected a whole number after '\(name)\(symbol)' in \(quoted)")
        }
        let extra = tail.trimmingSpaces
        guard extra.isEmpty else {
            let before = "'\(name)\(symbol)\(digits)'"
            throw UntilConditionError("unexpected \(UntilConditionError.quoted(extra)) after \(before) in \(quoted)")
        }
        guard let limit = number(digits, upTo: maxLimit) else {
            throw UntilConditionError(
                "number \(UntilConditionError.quoted(digits)) is too large (at most \(maxLimit)) in \(quoted)")
        }
        // The name was checked above.
        return .count(UntilCount(rawValue: String(name)) ?? .total, comparison, limit)
    }

    /// The seconds of a duration: digits, then `s` or `m`.
    private static func stallSeconds(
        _ digits: Substring, unit: Substring, in quoted: String
    ) throws(UntilConditionError) -> Int {
        let unitName = unit.trimmingSpaces
        guard !digits.isEmpty, unitName == "s" || unitName == "m" else {
            throw UntilConditionError("expected a duration such as 60s or 5m after 'stalled' in \(quoted)")
        }
        let scale = unitName == "m" ? 60 : 1
        guard let count = number(digits, upTo: maxStallSeconds / scale), count > 0 else {
            throw UntilConditionError("duration in \(quoted) must be 1s to \(maxStallSeconds)s (1 day)")
        }
        return count * scale
    }

    /// The value of ASCII `digits` when at most `limit`, else nil (never overflows).
    private static func number(_ digits: Substring, upTo limit: Int) -> Int? {
        var value = 0
        for digit in digits.utf8 {
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
            if value > limit { return nil }
        }
        return value
    }
}

extension Substring {
    /// Without the ASCII spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        let start = drop { $0 == " " }
        guard let last = start.lastIndex(where: { $0 != " " }) else { return start[start.endIndex...] }
        return start[...last]
    }
}
