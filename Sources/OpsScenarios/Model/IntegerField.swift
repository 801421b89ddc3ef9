/// Integer fields read as numbers first, so `1.5` or `1e30` get a message naming the field
/// (Foundation reports those without any path).
/// Largest integer magnitude a JSON number is read exactly as: 2^53 − 1.
let largestExactInteger = 9_007_199_254_740_991

extension KeyedDecodingContainer<FieldKey> {
    /// The integer at `name`, nil when absent. `bounds` name the field's limits in the message for
    /// a whole number too large to hold (`repeat must be <= 1000000 (got 1e+20)`); values within
    /// ±(2^53 − 1) are returned as they are, for the validator to check.
    func integer(_ name: String, bounds: ClosedRange<Int> = -largestExactInteger...largestExactInteger) throws -> Int? {
        let key = FieldKey(name)
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        guard let value = try? decode(Double.self, forKey: key) else {
            throw FieldProblem(codingPath + [key], "must be an integer")
        }
        let got = "(got \(ScenarioProblem.format(value)))"
        guard value == value.rounded() else { throw FieldProblem(codingPath + [key], "must be an integer \(got)") }
        guard abs(value) <= Double(largestExactInteger) else {
            let limit = value > 0 ? "<= \(bounds.upperBound)" : ">= \(bounds.lowerBound)"
            throw FieldProblem(codingPath + [key], "must be \(limit) \(got)")
        }
        return Int(value)
    }

    /// The integer at `name`, required.
    func requiredInteger(_ name: String, bounds: ClosedRange<Int>) throws -> Int {
        guard let value = try integer(name, bounds: bounds) else {
            throw FieldProblem(codingPath + [FieldKey(name)], "is required")
        }
        return value
    }
}
